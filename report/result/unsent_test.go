package result

import "testing"

// The renderings show one row for the errors never sent, named after
// disconnected when an HV-VES producer lost its connection.
func TestUnsentRow(t *testing.T) {
	for _, tc := range []struct {
		classes map[string]int64
		class   string
		n       int64
	}{
		{nil, ClassPoolExhausted, 0},
		{map[string]int64{ClassPoolExhausted: 3, ClassTimeout: 5}, ClassPoolExhausted, 3},
		{map[string]int64{ClassDisconnected: 2}, ClassDisconnected, 2},
		{map[string]int64{ClassDisconnected: 2, ClassPoolExhausted: 1}, ClassDisconnected, 3},
	} {
		if class, n := UnsentRow(tc.classes); class != tc.class || n != tc.n {
			t.Errorf("UnsentRow(%v) = %s %d, want %s %d", tc.classes, class, n, tc.class, tc.n)
		}
	}
}
