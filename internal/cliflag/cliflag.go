// Package cliflag holds what vesload's command line adds to pflag: the
// single-dash long flags (-rps 100) the CLI contract promises beside
// pflag's --rps 100, a "did you mean" for a misspelt flag, and reading a
// flag's value from arguments before they are parsed. It exists so that
// these rules are one tested piece, the same for every subcommand.
package cliflag

import (
	"errors"
	"fmt"
	"io"
	"net"
	"strconv"
	"strings"

	"github.com/spf13/pflag"

	"github.com/vesload/vesload/internal/suggest"
)

// ErrHelp says that help was asked for (-h, --help): the caller prints
// the usage and exits 0, not 2.
var ErrHelp = errors.New("help requested")

// New returns a flag set that reports errors instead of exiting and
// prints nothing itself, so that every bad flag becomes one line of its
// caller's, and that lists its flags in declaration order.
func New(name string) *pflag.FlagSet {
	fs := pflag.NewFlagSet(name, pflag.ContinueOnError)
	fs.SortFlags = false
	fs.SetOutput(io.Discard)
	return fs
}

// Parse parses args after rewriting single-dash long names (-rps 100)
// into pflag's double-dash form (--rps 100); a one-letter shorthand (-o,
// -H) is left alone. A flag of one value given twice is refused (see
// once). A help flag is ErrHelp; any other error starts with the flag
// set's name and, for an unknown flag, names the nearest known one:
// "run: unknown flag: --rpss (did you mean --rps?)".
func Parse(fs *pflag.FlagSet, args []string) error {
	norm := make([]string, 0, len(args))
	for i, a := range args {
		if a == "--" {
			norm = append(norm, args[i:]...)
			break
		}
		norm = append(norm, normaliseDash(fs, a))
	}
	restore := countSets(fs)
	err := fs.Parse(norm)
	restore()
	if errors.Is(err, pflag.ErrHelp) {
		return ErrHelp
	}
	var twice *TwiceError
	if errors.As(err, &twice) {
		return fmt.Errorf("%s: %w", fs.Name(), twice)
	}
	if err != nil {
		return fmt.Errorf("%s: %w%s", fs.Name(), plainValueError(err), didYouMean(fs, err))
	}
	return nil
}

// TwiceError is a flag of one value given twice on one command line.
// pflag keeps the last silently, so "--rps 100 … --rps 10" would run at
// 10 while the user reads 100 at the start of the line; a flag that
// takes a list (--header, --threshold) is meant to be repeated and is
// not refused.
type TwiceError struct {
	Flag          string
	First, Second string
}

func (e *TwiceError) Error() string {
	return fmt.Sprintf("--%s given twice (%q, then %q): give it once", e.Flag, e.First, e.Second)
}

// once wraps a flag's value for one Parse, refusing a second Set.
type once struct {
	pflag.Value
	name  string
	first *string
}

func (o *once) Set(s string) error {
	if o.first != nil {
		return &TwiceError{Flag: o.name, First: *o.first, Second: s}
	}
	o.first = &s
	return o.Value.Set(s)
}

// countSets wraps every flag of one value (not a list, not a count) in
// once for the length of a Parse; restore puts the values back, so that
// the command's own later Set calls are never refused.
func countSets(fs *pflag.FlagSet) (restore func()) {
	var wrapped []*pflag.Flag
	fs.VisitAll(func(f *pflag.Flag) {
		if _, list := f.Value.(pflag.SliceValue); list || f.Value.Type() == "count" || strings.HasSuffix(f.Value.Type(), "Array") || strings.HasSuffix(f.Value.Type(), "Slice") {
			return
		}
		f.Value = &once{Value: f.Value, name: f.Name}
		wrapped = append(wrapped, f)
	})
	return func() {
		for _, f := range wrapped {
			f.Value = f.Value.(*once).Value
		}
	}
}

// plainValueError rewrites a flag value that Go's number parser refused
// (pflag's slices and a few of its types pass strconv's words on:
// `strconv.ParseInt: parsing "abc": invalid syntax`) in the words pflag
// uses for its other numbers: `invalid argument "abc" for "--target-pid"
// flag: must be an integer`. Other errors are returned as they are.
func plainValueError(err error) error {
	var inv *pflag.InvalidValueError
	var num *strconv.NumError
	if !errors.As(err, &inv) || !errors.As(err, &num) {
		return err
	}
	want := "must be a number"
	switch {
	case errors.Is(num.Err, strconv.ErrRange):
		want = "out of range"
	case strings.HasPrefix(num.Func, "ParseInt"), strings.HasPrefix(num.Func, "ParseUint"), strings.HasPrefix(num.Func, "Atoi"):
		want = "must be an integer"
	case strings.HasPrefix(num.Func, "ParseBool"):
		want = "must be true or false"
	}
	return fmt.Errorf("invalid argument %q for %q flag: %s", inv.GetValue(), "--"+inv.GetFlag().Name, want)
}

// didYouMean names the flag an unknown one is probably a typo of:
// " (did you mean --rps?)", or "".
func didYouMean(fs *pflag.FlagSet, err error) string {
	name, ok := strings.CutPrefix(err.Error(), "unknown flag: --")
	if !ok {
		return ""
	}
	var names []string
	fs.VisitAll(func(f *pflag.Flag) { names = append(names, f.Name) })
	if s := suggest.Nearest(name, names); s != "" {
		return " (did you mean --" + s + "?)"
	}
	return ""
}

// UnknownCommand is the message for a word that names no subcommand of
// names: `unknown command "comapre" (did you mean compare?)`, with the
// same rule of nearness as flags and profile keys.
func UnknownCommand(word string, names []string) string {
	msg := fmt.Sprintf("unknown command %q", word)
	if s := suggest.Nearest(word, names); s != "" {
		msg += " (did you mean " + s + "?)"
	}
	return msg
}

func normaliseDash(fs *pflag.FlagSet, arg string) string {
	if len(arg) < 3 || arg[0] != '-' || arg[1] == '-' {
		return arg
	}
	name := arg[1:]
	if i := strings.IndexByte(name, '='); i >= 0 {
		name = name[:i]
	}
	if len(name) > 1 && (fs.Lookup(name) != nil || name == "help") {
		return "-" + arg
	}
	// A single-dash word that starts with no shorthand (-rpss) is a
	// misspelt long flag: pflag would report "unknown shorthand flag: 'r'",
	// which names neither what was typed nor what was meant.
	if len(name) > 1 && isLetter(name[0]) && fs.ShorthandLookup(name[:1]) == nil {
		return "-" + arg
	}
	return arg
}

func isLetter(c byte) bool { return 'a' <= c && c <= 'z' || 'A' <= c && c <= 'Z' }

// Usage writes the flag defaults of fs under a one-line synopsis.
func Usage(w io.Writer, synopsis string, fs *pflag.FlagSet) {
	fmt.Fprintf(w, "Usage: %s\n\nFlags:\n%s", synopsis, fs.FlagUsages())
}

// LastValue is the value of the last flag called name in args, in any of
// its spellings (-name X, --name X, -name=X, --name=X), or "": a command
// can look at one flag (which profile?) before choosing the flag set that
// parses the rest.
func LastValue(args []string, name string) string {
	value := ""
	for i, a := range args {
		if a == "--" {
			break
		}
		v, hasValue, ok := isFlag(a, name)
		if !ok {
			continue
		}
		switch {
		case hasValue:
			value = v
		case i+1 < len(args):
			value = args[i+1]
		}
	}
	return value
}

// SeparatorError is a separator flag of SplitAt that is missing, or
// given twice.
type SeparatorError struct {
	Name  string // the flag's name, without dashes
	Twice bool   // given twice; else missing
}

// Error names the flag as the user types it: "no --vs", "--vs given
// twice".
func (e *SeparatorError) Error() string {
	if e.Twice {
		return "--" + e.Name + " given twice"
	}
	return "no --" + e.Name
}

// SplitAt cuts args at the flag called name, spelt -name, --name or
// --name=VALUE (VALUE then starts the second half), so that one command
// can take two lists of arguments, as `vesload compare A... --vs B...`
// does; each half is parsed on its own afterwards. After "--" the flag
// is an argument. A missing or repeated separator is a *SeparatorError.
func SplitAt(args []string, name string) (before, after []string, err error) {
	for i, a := range args {
		if a == "--" {
			break
		}
		value, hasValue, ok := isFlag(a, name)
		if !ok {
			continue
		}
		before, after = args[:i], append([]string(nil), args[i+1:]...)
		if hasValue {
			after = append([]string{value}, after...)
		}
		for _, b := range after {
			if _, _, twice := isFlag(b, name); twice {
				return nil, nil, &SeparatorError{Name: name, Twice: true}
			}
		}
		return before, after, nil
	}
	return nil, nil, &SeparatorError{Name: name}
}

// isFlag reports whether arg is the flag called name (-name, --name or
// --name=VALUE), with its value when it has one.
func isFlag(arg, name string) (value string, hasValue, ok bool) {
	flag, value, hasValue := strings.Cut(strings.TrimLeft(arg, "-"), "=")
	return value, hasValue, strings.HasPrefix(arg, "-") && flag == name
}

// ParseAt parses a command whose arguments come in two lists cut by the
// flag called name (SplitAt): one flag set parses both halves, so that
// flags may sit on either side, and each half's remaining arguments are
// returned. Help and a bad flag get their own answer even when the
// separator is missing: ErrHelp, or Parse's error; a separator given
// twice is reported before a bad flag, which the second one would be.
func ParseAt(fs *pflag.FlagSet, args []string, name string) (before, after []string, err error) {
	before, after, err = SplitAt(args, name)
	if err != nil {
		var sep *SeparatorError
		twice := errors.As(err, &sep) && sep.Twice
		perr := Parse(fs, args)
		if errors.Is(perr, ErrHelp) || (perr != nil && !twice) {
			return nil, nil, perr
		}
		return nil, nil, err
	}
	if err := Parse(fs, before); err != nil {
		return nil, nil, err
	}
	before = fs.Args()
	if err := Parse(fs, after); err != nil {
		return nil, nil, err
	}
	return before, fs.Args(), nil
}

// OneLine keeps text from the command line or a file (a name, a value,
// a parser's message) on one output line: its lines are joined with
// spaces, so that a command's error stays the one line it promises.
func OneLine(s string) string {
	return strings.Join(strings.FieldsFunc(s, func(r rune) bool { return r == '\n' || r == '\r' }), " ")
}

// AddrVar defines a flag whose value is an address to listen on,
// HOST:PORT (HOST may be empty: every interface), checked when the flag
// is parsed, so that "--listen 8080" is one line naming the flag and the
// fix (":8080"), not the network library's "missing port in address"
// once the server starts. An empty value is allowed: the flag is off.
func AddrVar(fs *pflag.FlagSet, p *string, name, value, usage string) {
	*p = value
	fs.Var(addrValue{p}, name, usage)
}

// addrValue is a pflag.Value of a listen address.
type addrValue struct{ p *string }

// String implements pflag.Value.
func (a addrValue) String() string {
	if a.p == nil {
		return ""
	}
	return *a.p
}

// Type implements pflag.Value: the flag reads as a string in the usage.
func (a addrValue) Type() string { return "string" }

// Set implements pflag.Value.
func (a addrValue) Set(s string) error {
	if err := CheckAddr(s); err != nil {
		return err
	}
	*a.p = s
	return nil
}

// CheckAddr checks a HOST:PORT to listen on, saying what to write
// instead: a bare port is given its colon, a port out of range is named.
func CheckAddr(s string) error {
	if s == "" {
		return nil
	}
	_, port, err := net.SplitHostPort(s)
	if err != nil {
		if n, aerr := strconv.Atoi(s); aerr == nil && n >= 0 {
			return fmt.Errorf("want HOST:PORT: %q listens on every interface, %q on this machine only", ":"+s, "127.0.0.1:"+s)
		}
		return errors.New("want HOST:PORT, such as 127.0.0.1:8080 (or :8080 for every interface)")
	}
	n, err := strconv.Atoi(port)
	switch {
	case err != nil:
		return fmt.Errorf("port %q is not a number (want HOST:PORT, such as 127.0.0.1:8080)", port)
	case n < 0 || n > 65535:
		return fmt.Errorf("port %d out of range (want 0 to 65535)", n)
	}
	return nil
}
