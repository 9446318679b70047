package resultfile

import (
	"bufio"
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"

	"github.com/vesload/vesload/internal/inputfile"
	"github.com/vesload/vesload/report/result"
)

// ScanResults finds the result documents in a stream of logs, such as
// `kubectl logs -l job-name=… --tail=-1` prints for the pods of a sharded
// run that wrote their results with `-o -`. Other log lines (progress,
// summaries) may come before, between and after them. A document may span
// several lines (as -o - indents it) or be on one line.
//
// With kubectl's --prefix, every line starts with "[pod/NAME/CONTAINER] ":
// lines are then grouped by pod and only the last result of each pod
// counts. Without prefixes every result in the stream counts, so a result
// that appears twice is reported as a duplicate shard by MergeShards.
//
// names labels each result for messages: "NAME: pod/…" or "NAME: result
// k (shard I/N)". A document that is recognised as a result but does not
// decode is an error; a stream without any result is too.
func ScanResults(rd io.Reader, name string) (rs []*result.Result, names []string, err error) {
	pods, order, err := splitPods(rd, name)
	if err != nil {
		return nil, nil, err
	}
	for _, pod := range order {
		found, err := resultsIn(pods[pod], name)
		if err != nil {
			return nil, nil, err
		}
		if pod != "" && len(found) > 0 {
			found = found[len(found)-1:]
		}
		for _, r := range found {
			label := fmt.Sprintf("%s: result %d%s", name, len(rs)+1, r.ShardName())
			if pod != "" {
				label = name + ": " + pod
			}
			rs, names = append(rs, r), append(names, label)
		}
	}
	if len(rs) == 0 {
		return nil, nil, fmt.Errorf("%s: no vesload result in the stream (want the logs of runs that wrote their result with -o -)", name)
	}
	return rs, names, nil
}

// splitPods reads the stream and groups its lines by kubectl's pod
// prefix ("" for lines without one), in the order pods first appear.
func splitPods(rd io.Reader, name string) (map[string][]byte, []string, error) {
	br := bufio.NewReaderSize(inputfile.Reader(rd, name, "log stream", inputfile.Logs), 64<<10)
	pods := map[string][]byte{}
	var order []string
	for {
		line, err := br.ReadBytes('\n')
		if len(line) > 0 {
			pod, rest := cutPrefix(line)
			if _, ok := pods[pod]; !ok {
				order = append(order, pod)
			}
			pods[pod] = append(pods[pod], rest...)
		}
		if errors.Is(err, io.EOF) {
			return pods, order, nil
		}
		if errors.As(err, new(*inputfile.TooLargeError)) {
			return nil, nil, err
		}
		if err != nil {
			return nil, nil, fmt.Errorf("%s: %w", name, err)
		}
	}
}

// cutPrefix splits kubectl's "[pod/NAME/CONTAINER] " prefix off a line.
func cutPrefix(line []byte) (pod string, rest []byte) {
	if !bytes.HasPrefix(line, []byte("[pod/")) {
		return "", line
	}
	end := bytes.Index(line, []byte("] "))
	if end < 0 {
		return "", line
	}
	return string(line[1:end]), line[end+2:]
}

// resultsIn finds the result documents in one pod's log: every line that
// starts with '{' is tried as the start of a JSON value, and values with
// this schema are decoded as results.
func resultsIn(log []byte, name string) ([]*result.Result, error) {
	var out []*result.Result
	for off := 0; off < len(log); {
		line := log[off:]
		if i := bytes.IndexByte(line, '\n'); i >= 0 {
			line = line[:i+1]
		}
		if !bytes.HasPrefix(bytes.TrimLeft(line, " \t"), []byte("{")) {
			off += len(line)
			continue
		}
		dec := json.NewDecoder(bytes.NewReader(log[off:]))
		var doc struct {
			Schema string `json:"schema"`
		}
		var raw json.RawMessage
		if err := dec.Decode(&raw); err != nil || json.Unmarshal(raw, &doc) != nil || doc.Schema == "" {
			off += len(line) // another JSON log line, or not JSON at all
			continue
		}
		r, err := Decode(bytes.NewReader(raw), fmt.Sprintf("%s: result %d", name, len(out)+1))
		if err != nil {
			return nil, err
		}
		out = append(out, r)
		off += int(dec.InputOffset())
	}
	return out, nil
}
