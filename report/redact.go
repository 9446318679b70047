package report

// RedactURL hides the password of every URL embedded in s
// ("https://user:xxxxx@host/…"), for renderers outside this package that
// print configuration: results are redacted by their writer, but a
// rendering must not be where a secret leaks if one slipped through.
func RedactURL(s string) string { return redactURL(s) }
