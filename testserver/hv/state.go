package hv

import (
	"hash/maphash"
	"sync"
	"sync/atomic"
	"time"

	hdrhistogram "github.com/HdrHistogram/hdrhistogram-go"
)

// maxTravelUs is the longest travel time recorded (a day, in µs): a
// producer's clock set far off is clamped there, not dropped.
const maxTravelUs = int64(24 * time.Hour / time.Microsecond)

// maxSources bounds the per-source and per-client tables; further keys
// are counted under otherSources.
const (
	maxSources   = 1000
	otherSources = "(other)"
)

// state holds the emulator's counters. Plain counters are atomics; the
// tables and the travel-time histogram are under mu.
type state struct {
	connections, active, disconnections atomic.Int64
	bytesIn, payloadBytes               atomic.Int64
	nReceived, nSent                    atomic.Int64

	mu          sync.Mutex
	rejections  map[string]int64
	drops       map[string]int64
	discBy      map[string]int64
	byTopic     map[string]int64
	bySource    map[string]int64
	byClient    map[string]int64    // accepted messages per connection (remote address)
	ids         map[uint64]struct{} // maphash of the eventIds: 8 bytes each, whatever their length
	idSeed      maphash.Seed
	maxIDs      int
	duplicates  int64
	untracked   int64
	travel      *hdrhistogram.Histogram // µs
	travelSumUs float64
	negative    int64 // travel times below zero (clock skew)
}

func newState(maxIDs int) *state {
	return &state{
		rejections: map[string]int64{}, drops: map[string]int64{}, discBy: map[string]int64{},
		byTopic: map[string]int64{}, bySource: map[string]int64{}, byClient: map[string]int64{}, ids: map[uint64]struct{}{},
		idSeed: maphash.MakeSeed(), maxIDs: maxIDs, travel: hdrhistogram.New(1, maxTravelUs, 3),
	}
}

func (s *state) connected() {
	s.connections.Add(1)
	s.active.Add(1)
}

func (s *state) disconnected(cause string) {
	s.active.Add(-1)
	s.disconnections.Add(1)
	s.count(s.discBy, cause)
}

func (s *state) rejected(cause string) { s.count(s.rejections, cause) }
func (s *state) dropped(cause string)  { s.count(s.drops, cause) }
func (s *state) bytes(n int)           { s.bytesIn.Add(int64(n)) }

func (s *state) received(payload int) {
	s.nReceived.Add(1)
	s.payloadBytes.Add(int64(payload))
}

// bounded counts key in m, or under otherSources once m holds
// maxSources keys: a table per client or source must not grow without end.
func bounded(m map[string]int64, key string) {
	if _, ok := m[key]; ok || len(m) < maxSources {
		m[key]++
		return
	}
	m[otherSources]++
}

func (s *state) count(m map[string]int64, key string) {
	s.mu.Lock()
	m[key]++
	s.mu.Unlock()
}

// accepted records a valid, routed message from client.
func (s *state) accepted(client, source, eventID, topic string) {
	s.nSent.Add(1)
	s.mu.Lock()
	defer s.mu.Unlock()
	s.byTopic[topic]++
	bounded(s.bySource, source)
	bounded(s.byClient, client)
	h := maphash.String(s.idSeed, eventID) // two ids collide with odds of about n²/2⁶⁵
	switch _, seen := s.ids[h]; {
	case seen:
		s.duplicates++
	case len(s.ids) < s.maxIDs:
		s.ids[h] = struct{}{}
	default:
		s.untracked++
	}
}

// travelled records the travel time of a decoded message stamped
// lastEpochMicrosec and received at now. The collector reads the stamp as
// a signed number and its timer ignores negative durations, so a message
// stamped in the future is counted apart, not recorded; one older than
// maxTravelUs is recorded at the cap.
func (s *state) travelled(lastEpochMicrosec uint64, now time.Time) {
	travel := now.UnixMicro() - int64(lastEpochMicrosec)
	s.mu.Lock()
	defer s.mu.Unlock()
	if travel < 0 {
		s.negative++
		return
	}
	travel = min(max(travel, 1), maxTravelUs)
	s.travelSumUs += float64(travel)
	_ = s.travel.RecordValue(travel) // in range: cannot fail
}
