package hosts

import (
	"context"
	"fmt"

	"github.com/pkg/sftp"

	"github.com/warden-mcp/warden/internal/hostfs"
	"github.com/warden-mcp/warden/internal/session/sshstart"
	"github.com/warden-mcp/warden/internal/sshpool"
)

// noConfinement is what holds a program on a host warden does not run on.
const noConfinement = "none: classifier only"

// remote is the Host of an inventory target: commands on its SSH runner,
// files over SFTP or the exec channel, sessions on the pool.
func (s *Set) remote(t sshpool.Target) *Host {
	shell := t.Shell
	if shell == "" {
		shell = sshpool.DefaultShell
	}
	run := s.runner(t)
	return &Host{
		Name: t.Name, Kind: KindSSH, Runner: run, Inspect: run, Shell: shell,
		Env: s.remoteEnv, Addrs: targetAddrs(t), Confinement: noConfinement,
		fs:      func(ctx context.Context) (hostfs.FS, error) { return s.remoteFS(ctx, t) },
		starter: &sshstart.Starter{Pool: s.pool, Target: t, LoginHome: true, Logger: s.log},
		files:   func() string { return s.FilesTransport(t.Name) },
	}
}

// remoteFS picks a target's file transport: the pool's SFTP session when
// the server offers it, the exec channel when it does not (or as the
// host's files_transport says).
func (s *Set) remoteFS(ctx context.Context, t sshpool.Target) (hostfs.FS, error) {
	f, err := s.files.Pick(ctx, t)
	if err != nil {
		return nil, fmt.Errorf("files on %s: %w", t.Name, err)
	}
	if f.Exec != nil {
		return hostfs.Exec{FS: f.Exec}, nil
	}
	return hostfs.SFTP{Client: func(ctx context.Context) (*sftp.Client, error) { return s.pool.SFTP(ctx, t) }}, nil
}
