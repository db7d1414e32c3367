package sshpool

import (
	"bytes"
	"errors"
	"fmt"
	"os"
	"strings"

	"github.com/kevinburke/ssh_config"
)

// sshConfig answers the questions resolution asks of the user's
// ssh_config with the library's first-match semantics, without its cost:
// ssh_config.Config.Get matches every Host block's patterns (regular
// expressions) against the alias for every key asked, so resolving one
// host read every block a dozen times and an inventory of n aliases cost
// O(n²) matches. Here each alias is matched once, and only against the
// blocks that could match it: those naming it literally, found in a map,
// and those with a wildcard, which are few.
type sshConfig struct {
	blocks []*ssh_config.Host
	// literal lists, for each name a block's positive patterns spell out
	// without a wildcard, the indexes of those blocks in file order.
	literal map[string][]int
	// wild lists, in file order, the blocks with a wildcard pattern; any
	// of them may match any alias.
	wild []int
}

func readSSHConfig(path string) (*sshConfig, error) {
	cfg, err := decodeSSHConfig(path)
	if err != nil {
		return nil, err
	}
	c := &sshConfig{blocks: cfg.Hosts, literal: map[string][]int{}}
	for i, h := range cfg.Hosts {
		wild := false
		for _, p := range h.Patterns {
			s := p.String()
			switch {
			case strings.HasPrefix(s, "!"):
				// A negated pattern only ever removes the block.
			case strings.ContainsAny(s, "*?"):
				wild = true
			case !containsIndex(c.literal[s], i):
				c.literal[s] = append(c.literal[s], i)
			}
		}
		if wild {
			c.wild = append(c.wild, i)
		}
	}
	return c, nil
}

func containsIndex(l []int, i int) bool { return len(l) > 0 && l[len(l)-1] == i }

func decodeSSHConfig(path string) (*ssh_config.Config, error) {
	if path == "" {
		return ssh_config.DecodeBytes(nil)
	}
	b, err := os.ReadFile(path)
	if errors.Is(err, os.ErrNotExist) {
		return ssh_config.DecodeBytes(nil)
	}
	if err != nil {
		return nil, fmt.Errorf("read ssh config: %w", err)
	}
	cfg, err := ssh_config.Decode(bytes.NewReader(b))
	if err != nil {
		return nil, fmt.Errorf("parse ssh config %s: %w", path, err)
	}
	return cfg, nil
}

// aliases returns the names Host lines spell out whole (no wildcard or
// negation), each once, in file order.
func (c *sshConfig) aliases() []string {
	var out []string
	seen := map[string]bool{}
	for _, h := range c.blocks {
		for _, p := range h.Patterns {
			s := p.String()
			if strings.ContainsAny(s, "*?!") || seen[s] {
				continue
			}
			seen[s] = true
			out = append(out, s)
		}
	}
	return out
}

// host returns the blocks that apply to alias, in file order.
func (c *sshConfig) host(alias string) hostConfig {
	lit := c.literal[alias]
	var blocks []*ssh_config.Host
	// Merge the two ordered index lists, so blocks stay in file order:
	// the first value found wins.
	i, j := 0, 0
	for i < len(lit) || j < len(c.wild) {
		var k int
		switch {
		case j == len(c.wild) || (i < len(lit) && lit[i] < c.wild[j]):
			k, i = lit[i], i+1
		case i == len(lit) || c.wild[j] < lit[i]:
			k, j = c.wild[j], j+1
		default: // the same block, literal and wild
			k, i, j = lit[i], i+1, j+1
		}
		if h := c.blocks[k]; h.Matches(alias) {
			blocks = append(blocks, h)
		}
	}
	return hostConfig{alias: alias, blocks: blocks}
}

// hostConfig is what ssh_config says about one alias.
type hostConfig struct {
	alias  string
	blocks []*ssh_config.Host
}

// get returns the first value of key, as ssh_config.Config.Get does.
func (h hostConfig) get(key string) string {
	key = strings.ToLower(key)
	for _, b := range h.blocks {
		for _, n := range b.Nodes {
			switch n := n.(type) {
			case *ssh_config.Empty:
			case *ssh_config.KV:
				if strings.ToLower(n.Key) == key {
					return strings.TrimSpace(n.Value)
				}
			case *ssh_config.Include:
				if v := n.Get(h.alias, key); v != "" {
					return strings.TrimSpace(v)
				}
			default:
				return ""
			}
		}
	}
	return ""
}

// getAll returns every value of key, as ssh_config.Config.GetAll does.
func (h hostConfig) getAll(key string) []string {
	key = strings.ToLower(key)
	var all []string
	for _, b := range h.blocks {
		for _, n := range b.Nodes {
			switch n := n.(type) {
			case *ssh_config.Empty:
			case *ssh_config.KV:
				if strings.ToLower(n.Key) == key {
					all = append(all, n.Value)
				}
			case *ssh_config.Include:
				v, _ := n.GetAll(h.alias, key)
				all = append(all, v...)
			default:
				return nil
			}
		}
	}
	return all
}
