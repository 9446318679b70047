// Package suggest names the word a user probably meant: the one rule of
// "did you mean" for profile keys, --set variables, VES domains and the
// command line's flags, so that a typo is answered alike wherever it is
// made.
package suggest

import "strings"

// Nearest returns the candidate nearest to word when it is close enough
// to be a likely typo ("duraton" → "duration", "poolWait" → "pool_wait",
// "rpss" → "rps"), else "". Case, '_' and '-' do not count; otherwise the
// edit distance may be a third of the word's length, between 1 and 3.
func Nearest(word string, candidates []string) string {
	best, bestD := "", 1<<30
	norm := normKey(word)
	for _, c := range candidates {
		if normKey(c) == norm {
			return c
		}
		if d := editDistance(word, c); d < bestD {
			best, bestD = c, d
		}
	}
	limit := max(1, min(3, len(word)/3))
	if bestD <= limit {
		return best
	}
	return ""
}

func normKey(s string) string {
	return strings.ToLower(strings.NewReplacer("_", "", "-", "").Replace(s))
}

// editDistance is the edit distance between a and b, on bytes, in which
// swapping two neighbours counts as one edit (optimal string alignment):
// "rsp" is one typo of "rps", as "comapre" is of "compare". Words longer
// than 64 bytes are never near anything.
func editDistance(a, b string) int {
	if len(a) > 64 || len(b) > 64 {
		return 1 << 20
	}
	older := make([]int, len(b)+1) // row i-2
	prev := make([]int, len(b)+1)
	cur := make([]int, len(b)+1)
	for j := range prev {
		prev[j] = j
	}
	for i := 1; i <= len(a); i++ {
		cur[0] = i
		for j := 1; j <= len(b); j++ {
			cost := 1
			if a[i-1] == b[j-1] {
				cost = 0
			}
			cur[j] = min(prev[j]+1, cur[j-1]+1, prev[j-1]+cost)
			if i > 1 && j > 1 && a[i-1] == b[j-2] && a[i-2] == b[j-1] {
				cur[j] = min(cur[j], older[j-2]+1)
			}
		}
		older, prev, cur = prev, cur, older
	}
	return prev[len(b)]
}
