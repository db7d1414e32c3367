package hosts_test

import (
	"context"
	"fmt"
	"sort"
	"testing"
	"time"

	"github.com/warden-mcp/warden/internal/hosts"
	"github.com/warden-mcp/warden/internal/hosts/localhost"
	"github.com/warden-mcp/warden/internal/hosts/sshhost"
	"github.com/warden-mcp/warden/internal/sshpool"
	"github.com/warden-mcp/warden/internal/sshpool/sshpooltest"
)

// BenchmarkSetResolve resolves one inventory host and "local" through the
// Set every tool group uses, over generated inventories of growing size:
// the cost of the seam per call, which must not grow with the inventory.
func BenchmarkSetResolve(b *testing.B) {
	for _, n := range []int{10, 1000, 10000} {
		f, err := sshpooltest.NewFleet(b.TempDir(), n)
		if err != nil {
			b.Fatal(err)
		}
		inv, err := sshpool.NewInventory(f.Options)
		if err != nil {
			b.Fatal(err)
		}
		lp, err := localhost.New(localRunners())
		if err != nil {
			b.Fatal(err)
		}
		sp, err := sshhost.New(sshhost.Options{Inventory: inv, Pool: sshpool.New(sshpool.Options{})})
		if err != nil {
			b.Fatal(err)
		}
		set := hosts.New(lp, sp)
		name := f.Warden[len(f.Warden)/2]
		for _, host := range []string{"local", name} {
			label := "ssh"
			if host == "local" {
				label = "local"
			}
			b.Run(fmt.Sprintf("%s/hosts=%d", label, n), func(b *testing.B) {
				ctx := context.Background()
				var times []time.Duration
				for b.Loop() {
					start := time.Now()
					if _, err := set.Resolve(ctx, host); err != nil {
						b.Fatal(err)
					}
					times = append(times, time.Since(start))
				}
				sort.Slice(times, func(i, j int) bool { return times[i] < times[j] })
				b.ReportMetric(float64(times[len(times)/2].Nanoseconds()), "p50-ns")
			})
		}
		set.Close()
	}
}
