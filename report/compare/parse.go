package compare

import "fmt"

// ParseTest reads the name of a significance test: welch or utest.
func ParseTest(s string) (Test, error) {
	if t := Test(s); t == Welch || t == UTest {
		return t, nil
	}
	return "", fmt.Errorf("unknown test %q (want welch or utest)", s)
}

// ParseCenter reads the name of a per-side summary: mean or median.
func ParseCenter(s string) (Center, error) {
	if c := Center(s); c == Mean || c == Median {
		return c, nil
	}
	return "", fmt.Errorf("unknown centre %q (want mean or median)", s)
}

// ParseUndecided reads what undecided gates mean: fail or pass.
func ParseUndecided(s string) (Undecided, error) {
	if u := Undecided(s); u == UndecidedFail || u == UndecidedPass {
		return u, nil
	}
	return "", fmt.Errorf("unknown policy %q (want fail or pass)", s)
}

// CheckAlpha checks a significance level: strictly between 0 and 1.
func CheckAlpha(alpha float64) error {
	if !(alpha > 0 && alpha < 1) {
		return fmt.Errorf("%g is not between 0 and 1 (e.g. 0.05)", alpha)
	}
	return nil
}
