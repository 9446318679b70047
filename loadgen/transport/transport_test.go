package transport

import "testing"

func TestClassNameHTTP(t *testing.T) {
	t.Parallel()
	for code, want := range map[int]string{503: "http_503", 401: "http_401", 999: "http_999"} {
		if got := HTTP.Name(code); got != want {
			t.Errorf("HTTP.Name(%d) = %s", code, got)
		}
	}
}

func TestClassNames(t *testing.T) {
	t.Parallel()
	for c, want := range map[Class]string{OK: "ok", Timeout: "timeout", PoolExhausted: "pool_exhausted", Aborted: "aborted", NumClasses + 3: "other"} {
		if got := c.Name(0); got != want {
			t.Errorf("Class(%d).Name = %q, want %q", c, got, want)
		}
	}
}

func TestClassNameAllocatesNothing(t *testing.T) {
	if a := testing.AllocsPerRun(100, func() { _ = HTTP.Name(503) + "" }); a != 0 {
		t.Errorf("HTTP.Name(503) allocates %.0f times", a)
	}
}
