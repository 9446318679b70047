package sample

import (
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/vesload/vesload/internal/leaktest"
)

// childEnv makes the test binary a CPU burner instead of running tests:
// "duty,life" burns duty of one core for life, then exits.
const childEnv = "VESLOAD_SAMPLE_CHILD"

func TestMain(m *testing.M) {
	if spec := os.Getenv(childEnv); spec != "" {
		os.Exit(burn(spec))
	}
	// No goroutine may outlive the tests (samplers run for a whole run).
	leaktest.VerifyTestMain(m)
}

// burn spins for duty of every 20 ms period and sleeps the rest, until
// life has passed or its parent is gone, so that no burner outlives a
// crashed test.
func burn(spec string) int {
	dutyText, lifeText, _ := strings.Cut(spec, ",")
	duty, err1 := strconv.ParseFloat(dutyText, 64)
	life, err2 := time.ParseDuration(lifeText)
	if err1 != nil || err2 != nil {
		fmt.Fprintln(os.Stderr, "bad", childEnv, spec)
		return 2
	}
	const period = 20 * time.Millisecond
	busy := time.Duration(duty * float64(period))
	parent := os.Getppid()
	end := time.Now().Add(life)
	for time.Now().Before(end) && os.Getppid() == parent {
		start := time.Now()
		for time.Since(start) < busy {
		}
		time.Sleep(period - time.Since(start))
	}
	return 0
}

// child is a burner process started by a test.
type child struct {
	cmd  *exec.Cmd
	done chan struct{} // closed once reaped
}

func (c *child) pid() int32 { return int32(c.cmd.Process.Pid) }

// startChild starts a burner; name, when set, becomes its process name
// through a symlink to the test binary. When reap is false the test must
// call wait itself, so that the process can be seen as a zombie.
func startChild(t *testing.T, name string, duty float64, life time.Duration, reap bool) *child {
	t.Helper()
	exe, err := os.Executable()
	if err != nil {
		t.Fatal(err)
	}
	if name != "" {
		link := filepath.Join(t.TempDir(), name)
		if err := os.Symlink(exe, link); err != nil {
			t.Fatal(err)
		}
		exe = link
	}
	cmd := exec.Command(exe)
	cmd.Env = append(os.Environ(), fmt.Sprintf("%s=%g,%s", childEnv, duty, life))
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	c := &child{cmd: cmd, done: make(chan struct{})}
	if reap {
		go c.wait()
	}
	t.Cleanup(func() {
		_ = cmd.Process.Kill()
		if !reap {
			select {
			case <-c.done:
			default:
				c.wait()
			}
		}
		<-c.done
	})
	return c
}

// wait reaps the child.
func (c *child) wait() {
	_ = c.cmd.Wait()
	close(c.done)
}
