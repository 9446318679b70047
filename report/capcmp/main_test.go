package capcmp

import (
	"testing"

	"github.com/vesload/vesload/internal/leaktest"
)

func TestMain(m *testing.M) { leaktest.VerifyTestMain(m) }
