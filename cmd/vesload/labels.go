package main

import (
	"maps"

	"github.com/spf13/pflag"

	"github.com/vesload/vesload/report/result"
)

// addLabelFlag adds --label, the same for every command that runs load
// (`run`, `hv`): what the run tests, recorded in its result, by which
// `vesload trend --by` orders and names a history.
func addLabelFlag(fs *pflag.FlagSet, labels *[]string) {
	fs.StringArrayVar(labels, "label", nil, "label the run KEY=VALUE in its result, e.g. build=1.9.1 or commit=abc123 (repeatable; profile key labels); vesload trend --by KEY orders runs by it")
}

// sideName is the name of one side of a comparison: the one given, else
// the build label every run of the side carries (--label build=1.9.1),
// else empty (compare names it A or B).
func sideName(given string, rs []*result.Result) string {
	if given != "" || len(rs) == 0 {
		return given
	}
	build := rs[0].Config.Labels["build"]
	for _, r := range rs[1:] {
		if r.Config.Labels["build"] != build {
			return ""
		}
	}
	return build
}

// parseLabels reads the --label flags over the profile's labels (a flag
// replaces the profile's label of the same key); nil when there are
// none.
func parseLabels(base map[string]string, raw []string) (map[string]string, error) {
	out := maps.Clone(base)
	for _, s := range raw {
		k, v, err := result.ParseLabel(s)
		if err != nil {
			return nil, usagef("--label: %v", err)
		}
		if out == nil {
			out = map[string]string{}
		}
		out[k] = v
	}
	return out, nil
}
