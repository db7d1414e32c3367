package server

import (
	"github.com/warden-mcp/warden/internal/config"
	"github.com/warden-mcp/warden/internal/sshpool"
)

// Inventory is the SSH inventory a server assembled from cfg would read:
// warden.yaml's hosts over the user's ssh_config. warden doctor checks
// each of its hosts.
func Inventory(cfg *config.Config, getenv func(string) string) (*sshpool.Inventory, error) {
	return newInventory(cfg, Options{Getenv: getenv})
}
