package hv

import (
	"context"
	"encoding/json"
	"fmt"
	"net/http"
	"time"
)

// ReadStats reads the counters of an emulator whose monitor listens at
// addr (HOST:PORT, `vesload serve --hv-monitor`): what a run started
// against the built-in emulator shows as the receiver's view.
func ReadStats(ctx context.Context, addr string) (Stats, error) {
	var st Stats
	req, err := http.NewRequestWithContext(ctx, http.MethodGet, "http://"+addr+"/stats", nil)
	if err != nil {
		return st, err
	}
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		return st, fmt.Errorf("built-in emulator /stats: %w", err)
	}
	defer resp.Body.Close()
	if resp.StatusCode != http.StatusOK {
		return st, fmt.Errorf("built-in emulator /stats: %s", resp.Status)
	}
	if err := json.NewDecoder(resp.Body).Decode(&st); err != nil {
		return st, fmt.Errorf("built-in emulator /stats: %w", err)
	}
	return st, nil
}

// settlePoll is how often AwaitStats asks again.
const settlePoll = 10 * time.Millisecond

// AwaitStats waits, up to settle, until the emulator at addr has read
// written messages, and returns its counters then (or the last ones read
// when settle ran out).
func AwaitStats(addr string, written int64, settle time.Duration) (Stats, error) {
	ctx, cancel := context.WithTimeout(context.Background(), settle+5*time.Second)
	defer cancel()
	deadline := time.Now().Add(settle)
	st, err := ReadStats(ctx, addr)
	for (err != nil || st.Received < written) && time.Now().Before(deadline) {
		time.Sleep(settlePoll)
		st, err = ReadStats(ctx, addr)
	}
	return st, err
}
