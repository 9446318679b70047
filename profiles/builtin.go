package profiles

import (
	"embed"
	"fmt"
	"io/fs"
	"path"
	"slices"
	"strings"
)

//go:embed builtin/*.yaml
var builtinFS embed.FS

// Info describes a built-in profile for listings.
type Info struct {
	Name        string
	Description string
}

// Builtins lists the built-in profiles in natural order of their names,
// each with the first line of its description.
func Builtins() []Info {
	names := builtinNames()
	infos := make([]Info, 0, len(names))
	for _, name := range names {
		info := Info{Name: name}
		data, err := BuiltinYAML(name)
		if err == nil {
			var p *Profile
			if p, err = Parse(data, name); err == nil {
				info.Description, _, _ = strings.Cut(p.Description, "\n")
			}
		}
		if err != nil {
			info.Description = "(invalid: " + err.Error() + ")"
		}
		infos = append(infos, info)
	}
	return infos
}

// BuiltinYAML returns the YAML text of a built-in profile, as written, for
// `vesload profiles show NAME` to print so it can be copied and edited.
func BuiltinYAML(name string) ([]byte, error) {
	if name == "" || strings.ContainsAny(name, `/\.`) {
		return nil, fmt.Errorf("no built-in profile %q", name)
	}
	data, err := builtinFS.ReadFile("builtin/" + name + ".yaml")
	if err != nil {
		return nil, fmt.Errorf("no built-in profile %q (built-ins: %s)", name, strings.Join(builtinNames(), ", "))
	}
	return data, nil
}

func builtinNames() []string {
	entries, err := fs.ReadDir(builtinFS, "builtin")
	if err != nil {
		return nil
	}
	names := make([]string, 0, len(entries))
	for _, e := range entries {
		names = append(names, strings.TrimSuffix(e.Name(), path.Ext(e.Name())))
	}
	slices.SortFunc(names, naturalCompare)
	return names
}

// naturalCompare orders names with their digit runs compared as numbers,
// so ves-50rps comes before ves-100rps.
func naturalCompare(a, b string) int {
	for a != "" && b != "" {
		da, db := digitRun(a), digitRun(b)
		if da > 0 && db > 0 {
			na, nb := strings.TrimLeft(a[:da], "0"), strings.TrimLeft(b[:db], "0")
			if c := len(na) - len(nb); c != 0 {
				return c
			}
			if c := strings.Compare(na, nb); c != 0 {
				return c
			}
			a, b = a[da:], b[db:]
			continue
		}
		if a[0] != b[0] {
			return int(a[0]) - int(b[0])
		}
		a, b = a[1:], b[1:]
	}
	return len(a) - len(b)
}

func digitRun(s string) int {
	i := 0
	for i < len(s) && s[i] >= '0' && s[i] <= '9' {
		i++
	}
	return i
}
