package profiles

// Suggest returns the candidate nearest to word when it is close enough
// to be a likely typo, else "": the command line names the flag a user
// probably meant (--rpss → --rps) with the same rule as profile keys.
func Suggest(word string, candidates []string) string { return suggest(word, candidates) }
