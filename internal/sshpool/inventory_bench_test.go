package sshpool_test

import (
	"fmt"
	"slices"
	"sync"
	"testing"
	"time"

	"github.com/warden-mcp/warden/internal/sshpool"
	"github.com/warden-mcp/warden/internal/sshpool/sshpooltest"
)

var benchInventories sync.Map // size -> *sshpool.Inventory

// benchInventory builds the generated fleet of n hosts once per size, so
// the benchmark's rounds time Resolve and not the build.
func benchInventory(b *testing.B, n int) (*sshpool.Inventory, sshpooltest.Fleet) {
	b.Helper()
	f, err := sshpooltest.NewFleet(b.TempDir(), n)
	if err != nil {
		b.Fatal(err)
	}
	if inv, ok := benchInventories.Load(n); ok {
		return inv.(*sshpool.Inventory), f
	}
	start := time.Now()
	inv, err := sshpool.NewInventory(f.Options)
	if err != nil {
		b.Fatal(err)
	}
	b.Logf("NewInventory(%d hosts): %v", n, time.Since(start))
	benchInventories.Store(n, inv)
	return inv, f
}

// BenchmarkResolve resolves one host, as every remote call does, in
// inventories of growing size: the time must not grow with the inventory.
// Each size resolves a warden host reached through an ssh_config bastion
// and an ssh_config alias, alternately.
func BenchmarkResolve(b *testing.B) {
	for _, n := range []int{10, 100, 1000, 10000} {
		b.Run(fmt.Sprintf("hosts=%d", n), func(b *testing.B) {
			inv, f := benchInventory(b, n)
			names := []string{f.Warden[len(f.Warden)-1], f.Aliases[len(f.Aliases)-2]}
			// Warm up, and check the names resolve.
			for _, name := range names {
				if _, err := inv.Resolve(name); err != nil {
					b.Fatal(err)
				}
			}
			took := make([]time.Duration, 0, b.N)
			b.ResetTimer()
			for i := range b.N {
				start := time.Now()
				if _, err := inv.Resolve(names[i%2]); err != nil {
					b.Fatal(err)
				}
				took = append(took, time.Since(start))
			}
			b.StopTimer()
			slices.Sort(took)
			b.ReportMetric(float64(took[len(took)/2].Nanoseconds()), "p50-ns")
		})
	}
}

// BenchmarkList lists the whole inventory, as hosts_list does.
func BenchmarkList(b *testing.B) {
	for _, n := range []int{1000} {
		b.Run(fmt.Sprintf("hosts=%d", n), func(b *testing.B) {
			inv, _ := benchInventory(b, n)
			took := make([]time.Duration, 0, b.N)
			b.ResetTimer()
			for range b.N {
				start := time.Now()
				if got := len(inv.List()); got != n {
					b.Fatalf("List: %d hosts, want %d", got, n)
				}
				took = append(took, time.Since(start))
			}
			b.StopTimer()
			slices.Sort(took)
			b.ReportMetric(float64(took[len(took)/2].Nanoseconds()), "p50-ns")
		})
	}
}
