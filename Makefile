# vesload: the two commands a fresh machine needs are `make run` and `make test`.
GO      ?= go
BIN     := bin/vesload
VERSION ?= $(shell git describe --tags --always --dirty 2>/dev/null || echo dev)
LDFLAGS := -s -w -X main.version=$(VERSION)
FUZZTIME ?= 15s

.PHONY: build run test vet race bench bench-peers bench-capacity soak fuzz clean uplot screenshot image

# A static binary (no C library to load): it runs on any Linux and in a
# distroless image, and starts with less resident memory.
build:
	CGO_ENABLED=0 $(GO) build -trimpath -ldflags '$(LDFLAGS)' -o $(BIN) ./cmd/vesload

# The container image (Containerfile): the static binary on an empty base,
# user 65532, built without a daemon by buildah and written as an OCI
# archive; `make image IMAGE=registry/vesload:tag` tags it, then e.g.
# `skopeo copy oci-archive:bin/vesload-image.tar docker://registry/vesload:tag`.
# vesload kube's --image defaults to the same vesload:VERSION.
IMAGE ?= vesload:$(VERSION)
image: build
	bash scripts/image.sh $(BIN) $(IMAGE) bin/vesload-image.tar $(VERSION)

# A 20 s demo against the built-in emulator: the summary a run prints.
run: build
	./$(BIN) -rps 50 -duration 20s

vet:
	$(GO) vet ./...
	@unformatted=$$(gofmt -l $$(git ls-files '*.go' 2>/dev/null || find . -name '*.go')); \
	if [ -n "$$unformatted" ]; then echo "gofmt needed: $$unformatted"; exit 1; fi

# Unit tests, race detector, and end-to-end tests of the built binary
# (cmd/vesload builds it) against the emulator and a local nginx. The
# timeout is per package: cmd/vesload's end-to-end tests, capacity searches
# among them, take about 8 minutes on two cores, and a slower machine must
# not fail them for being slower. A test that needs the machine's cores to
# itself (vesload on one, nginx on the other) runs last, alone.
test: vet
	$(GO) test -race -timeout 15m ./...
	$(GO) test -count=1 -run '^TestRequestPathAllocatesNothing$$' ./loadgen/engine
	VESLOAD_ALONE=1 $(GO) test -race -count=1 -run '^TestCapacityLimitedByTheGenerator$$' ./cmd/vesload

bench:
	$(GO) test -run '^$$' -bench . -benchmem ./...

# vesload beside wrk, ab, hey, vegeta and JMeter against a local nginx
# (installs what it needs; about 5 minutes; REPEAT=3 for medians of 3).
bench-peers:
	bash bench/peers.sh

# vesload capacity's acceptance as a user runs it, 5 s steps and 5 % precision:
# the emulator bounded to about 800/s twice, a local nginx's rate limit, and the
# generator held to one core against nginx on the other; each search checked
# against its band and its 4 minutes (about 10 minutes; needs nginx, jq, taskset).
bench-capacity:
	bash bench/capacity.sh

# vesload's own RSS over a long run at 100 RPS (DURATION=10m by default).
soak:
	bash bench/soak.sh

# Runs every fuzz target for FUZZTIME each.
fuzz:
	@for pkg in $$($(GO) list ./...); do \
	  for f in $$($(GO) test -list '^Fuzz' $$pkg 2>/dev/null | grep '^Fuzz'); do \
	    echo "== $$pkg $$f"; $(GO) test -run '^$$' -fuzz "^$$f$$" -fuzztime $(FUZZTIME) $$pkg || exit 1; \
	  done; \
	done

clean:
	rm -rf bin

# Refreshes the uPlot build inlined into HTML reports (checked in under
# report/html/assets/uplot/ with its licence and version) from npm.
UPLOT_VERSION ?= 1.6.32
uplot:
	UPLOT_VERSION=$(UPLOT_VERSION) bash report/html/assets/uplot/refresh.sh

# Renders docs/report.png from a 30 s run against the emulator with
# headless Chromium (needs chromium).
screenshot: build
	bash scripts/screenshot.sh report

# Renders docs/dashboard.png, the live page (--dashboard) 20 s into a run
# against the emulator, with headless Chromium.
.PHONY: screenshot-live
screenshot-live: build
	bash scripts/screenshot.sh live

# Renders docs/trend.png, the page of `vesload trend` over a history of
# builds whose emulator latency regresses and is fixed, with headless
# Chromium.
.PHONY: screenshot-trend
screenshot-trend: build
	bash scripts/screenshot.sh trend

# Renders docs/capacity.png, the page of `vesload capacity` against the
# emulator bounded to about 800/s, with headless Chromium.
.PHONY: screenshot-capacity
screenshot-capacity: build
	bash scripts/screenshot.sh capacity

# Renders docs/capacity-compare.png, the page of `vesload compare` over
# two capacity searches, against the emulator bounded to about 800/s and
# to about 600/s, with headless Chromium.
.PHONY: screenshot-capacity-compare
screenshot-capacity-compare: build
	bash scripts/screenshot.sh capacity-compare
