package engine

import "testing"

// The connection freed last serves next, so a run that needs few
// connections at a time keeps using the same few (and their workers stay
// in the caches); an empty pool says so, and a give wakes a waiter.
func TestConnPoolServesTheLastFreedFirst(t *testing.T) {
	t.Parallel()
	p := newConnPool(4)
	for _, want := range []token{0, 1, 2, 3} {
		if got, ok := p.take(); !ok || got != want {
			t.Fatalf("take = %d, %v; want %d (the first workers first)", got, ok, want)
		}
	}
	if got, ok := p.take(); ok {
		t.Fatalf("take on an empty pool = %d, true", got)
	}
	for _, tt := range []struct {
		give []token
		want []token
	}{
		{give: []token{2, 0, 3}, want: []token{3, 0, 2}},
		{give: []token{1}, want: []token{1}},
		{give: []token{1, 2}, want: []token{2}},
		{give: []token{3}, want: []token{3, 1}},
	} {
		for _, g := range tt.give {
			p.give(g)
		}
		select {
		case <-p.freed:
		default:
			t.Errorf("give %v woke no waiter", tt.give)
		}
		for _, want := range tt.want {
			if got, ok := p.take(); !ok || got != want {
				t.Errorf("after give %v: take = %d, %v; want %d", tt.give, got, ok, want)
			}
		}
	}
}
