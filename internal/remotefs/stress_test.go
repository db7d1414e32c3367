package remotefs

import (
	"context"
	"io"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"

	"github.com/warden-mcp/warden/internal/sshd"
)

// TestDropbearConcurrentCalls: many calls at once on one dropbear host
// (the snapshot engine reads with eight workers) all succeed. Sessions
// opened while another's command exits make dropbear 2022.83 abort the
// connection (mkj/dropbear#321), so this fails unless the commands of a
// dropbear host run one at a time — and streams held open side by side
// (a diff reads two files at once) must not wait on each other.
func TestDropbearConcurrentCalls(t *testing.T) {
	srv := sshd.StartDropbear(t, sshd.DropbearOptions{User: "wardentest"})
	pool, tg := target(t, srv)
	e := NewExec(SSH(pool, tg))
	dir := userDir(t)
	a, b := filepath.Join(dir, "a"), filepath.Join(dir, "b")
	big := strings.Repeat("0123456789abcdef", 100000) // 1.6 MB: two chunks
	os.WriteFile(a, []byte(big), 0o644)
	os.WriteFile(b, []byte(big), 0o644)
	ctx := context.Background()
	var wg sync.WaitGroup
	errs := make(chan error, 100)
	for w := 0; w < 8; w++ {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for i := 0; i < 2; i++ {
				if _, err := e.Lstat(ctx, a); err != nil {
					errs <- err
				}
				ra, _, err := e.Open(ctx, a)
				if err != nil {
					errs <- err
					continue
				}
				rb, _, err := e.Open(ctx, b)
				if err != nil {
					ra.Close()
					errs <- err
					continue
				}
				// Read the two side by side, a chunk of each in turn.
				x, err1 := io.ReadAll(io.LimitReader(ra, 1<<20))
				y, err2 := io.ReadAll(io.LimitReader(rb, 1<<20))
				x2, err3 := io.ReadAll(ra)
				y2, err4 := io.ReadAll(rb)
				ra.Close()
				rb.Close()
				for _, err := range []error{err1, err2, err3, err4} {
					if err != nil {
						errs <- err
					}
				}
				if string(x)+string(x2) != big || string(y)+string(y2) != big {
					errs <- io.ErrUnexpectedEOF
				}
			}
		}()
	}
	wg.Wait()
	close(errs)
	for err := range errs {
		t.Error(err)
	}
	if t.Failed() {
		t.Log(srv.Log())
	}
}
