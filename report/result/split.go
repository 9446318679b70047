package result

// AddSplit counts one due request's outcome into the split by outcome
// alone: its latency into OKLatency or ErrorLatency, a failure into
// Failures, and nothing into Latency, Classes or MessageIDs, which
// JoinSplit fills from them once the Tally counts no more. It is for a
// Tally counted under a lock that must stay short (a second of the
// engine's timeline whose split an output reads): there it costs what Add
// costs a Tally without the split, and the rest is done after the lock.
// t must carry the split (NewSecondTally).
func (t *Tally) AddSplit(o Outcome) {
	t.Scheduled++
	if !NeverSent(o.Class) {
		t.Sent++
		t.BytesSent += o.BytesSent
		t.BytesReceived += o.BytesReceived
		_ = t.Service.RecordValue(Micros(o.Service))
		t.split(o)
	}
	if o.Class == OutcomeOK {
		t.OK++
		return
	}
	t.Errors++
	t.Failures[Failure{Class: o.Class, MessageID: o.MessageID}]++
}

// JoinSplit completes a Tally counted by AddSplit into what Add would
// have left: Latency holds OKLatency and ErrorLatency together, Classes
// and MessageIDs count Failures by class and by messageId.
func (t *Tally) JoinSplit() {
	t.Latency.Merge(t.OKLatency)
	t.Latency.Merge(t.ErrorLatency)
	for f, n := range t.Failures {
		t.Classes[f.Class] += n
		if f.MessageID != "" {
			t.MessageIDs[f.MessageID] += n
		}
	}
}
