package ves

import (
	"hash/fnv"
	"math/bits"
)

// golden is the splitmix64 increment (2^64 / φ, odd), so n*golden is a
// bijection on uint64 and consecutive sequence numbers land far apart.
const golden = 0x9e3779b97f4a7c15

// mix64 is the splitmix64 finalizer. It is a bijection on uint64, which is
// what makes derived UUIDs unique per sequence number within a run.
func mix64(z uint64) uint64 {
	z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9
	z = (z ^ (z >> 27)) * 0x94d049bb133111eb
	return z ^ (z >> 31)
}

// runKey turns a run ID into the 64-bit key that seeds every derived value,
// so two runs with different IDs produce different UUIDs and numbers.
func runKey(runID string) uint64 {
	h := fnv.New64a()
	_, _ = h.Write([]byte(runID)) // a hash.Hash never returns an error
	return mix64(h.Sum64())
}

// boundedRandom maps the hash of (key, salt, n) onto [lo, lo+span-1];
// span 0 stands for the whole int64 range. The multiply-shift reduction
// avoids the division of a modulo and its bias is below 2^-32 for any
// span a template can name.
func boundedRandom(key, salt, n uint64, lo int64, span uint64) int64 {
	h := mix64((key ^ salt) + n*golden)
	if span == 0 {
		return lo + int64(h)
	}
	hi, _ := bits.Mul64(h, span)
	return lo + int64(hi)
}

// appendUUID appends a version 4 UUID derived from key, salt and n. The
// first 64 bits of entropy are mix64((key^salt) + n*golden), a bijection
// of n, and all of them are kept (the 4 bits displaced by the version
// nibble move into the second half), so one placeholder never repeats a
// UUID within a run; the rest is a second hash, so runs with different
// keys and placeholders with different salts do not share UUIDs either.
func appendUUID(dst []byte, key, salt, n uint64) []byte {
	v := mix64((key ^ salt) + n*golden)
	w := mix64(v ^ mix64(key^salt^0x5851f42d4c957f2d))
	hi := (v &^ 0xf000) | 0x4000
	lo := (w & 0x3ffffffffffffff0) | 0x8000000000000000 | ((v >> 12) & 0xf)
	dst = appendHex(dst, hi>>32, 8)
	dst = append(dst, '-')
	dst = appendHex(dst, hi>>16, 4)
	dst = append(dst, '-')
	dst = appendHex(dst, hi, 4)
	dst = append(dst, '-')
	dst = appendHex(dst, lo>>48, 4)
	dst = append(dst, '-')
	return appendHex(dst, lo, 12)
}

// appendHex appends the low digits hex digits of v, zero-padded.
func appendHex(dst []byte, v uint64, digits int) []byte {
	const hexDigits = "0123456789abcdef"
	for i := digits - 1; i >= 0; i-- {
		dst = append(dst, hexDigits[(v>>(4*uint(i)))&0xf])
	}
	return dst
}
