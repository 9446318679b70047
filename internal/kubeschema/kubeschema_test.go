package kubeschema

import (
	"strings"
	"testing"

	"github.com/vesload/vesload/internal/leaktest"
)

func TestMain(m *testing.M) { leaktest.VerifyTestMain(m) }

const goodJob = `apiVersion: batch/v1
kind: Job
metadata:
  name: j
spec:
  completionMode: Indexed
  completions: 2
  template:
    spec:
      restartPolicy: Never
      containers:
        - name: c
          image: i
          ports:
            - containerPort: 9464
              protocol: TCP
          resources:
            requests:
              cpu: "1"
              memory: 256Mi
`

// TestValidate: the API's schemas accept a good object and refuse each
// kind of mistake kubeconform -strict refuses. (Kubernetes' documents
// carry no enum keywords: allowed values are in descriptions only.)
func TestValidate(t *testing.T) {
	t.Parallel()
	v := ForTest(t)
	cases := []struct {
		name, doc, want string // want: "" accepts, else a part of the error
	}{
		{"good job", goodJob, ""},
		{"good service", "apiVersion: v1\nkind: Service\nmetadata:\n  name: s\nspec:\n  clusterIP: None\n  ports:\n    - name: m\n      port: 9464\n      targetPort: metrics\n", ""},
		{"unknown field", strings.Replace(goodJob, "  completions: 2\n", "  completions: 2\n  completionz: 2\n", 1), "completionz"},
		{"unknown field deep", strings.Replace(goodJob, "          image: i\n", "          image: i\n          imag: i\n", 1), "imag"},
		{"misplaced field", strings.Replace(goodJob, "      restartPolicy: Never\n", "      restartPolicy: Never\n      completions: 2\n", 1), "completions"},
		{"missing required", strings.Replace(goodJob, "            - containerPort: 9464\n", "            - protocol: UDP\n", 1), "containerPort"},
		{"wrong type", strings.Replace(goodJob, "completions: 2", "completions: two", 1), "completions"},
		{"wrong type deep", strings.Replace(goodJob, "containerPort: 9464", "containerPort: metrics", 1), "containerPort"},
		{"unknown kind", "apiVersion: batch/v1\nkind: Jobb\nmetadata:\n  name: j\n", "no kind Jobb"},
		{"unknown group", "apiVersion: monitoring.coreos.com/v1\nkind: PodMonitor\nmetadata:\n  name: p\n", "no API group version"},
	}
	for _, c := range cases {
		err := v.Validate([]byte(c.doc))
		switch {
		case c.want == "" && err != nil:
			t.Errorf("%s: %v", c.name, err)
		case c.want != "" && err == nil:
			t.Errorf("%s: accepted", c.name)
		case c.want != "" && !strings.Contains(err.Error(), c.want):
			t.Errorf("%s: error does not name %q: %v", c.name, c.want, err)
		}
	}
}

// TestValidateStream checks every document of a stream and skips the
// kinds it is told to.
func TestValidateStream(t *testing.T) {
	t.Parallel()
	v := ForTest(t)
	stream := "# comment\n---\n" + goodJob + "---\napiVersion: monitoring.coreos.com/v1\nkind: PodMonitor\nmetadata:\n  name: p\n---\n" + goodJob
	n, err := v.ValidateStream([]byte(stream), func(k string) bool { return k == "PodMonitor" })
	if err != nil || n != 2 {
		t.Fatalf("checked %d, %v: want 2, nil", n, err)
	}
	if _, err := v.ValidateStream([]byte(stream), nil); err == nil || !strings.Contains(err.Error(), "document 2") {
		t.Fatalf("PodMonitor not skipped: %v", err)
	}
}
