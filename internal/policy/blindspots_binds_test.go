package policy

import (
	"strings"
	"testing"
)

// TestBlindSpotContainerBindsState: the container engine's daemon makes a
// bind mount outside warden's confinement, so binding warden's state, or
// any directory above it, gives the container the token and audit log to
// read and rewrite. Each such bind is denied on the local host in every
// spelling the engines take, as a word naming the state is.
func TestBlindSpotContainerBindsState(t *testing.T) {
	p := protectedPolicy(t)
	var cmds []string
	for _, src := range []string{
		"/", "//", "/root", "/root/.local", "/root/.local/", "/root/.local/state", "/root//.local/./state",
		"/root/.local/state/warden", "/root/.local/state/warden/token", "/root/.local/stat?", "/ro*",
		"~", "~/.local", "$HOME/.local", "${HOME}/.local/state", "/etc", "/etc/warden", "/etc/../etc/warden",
	} {
		for _, f := range []string{
			"docker run -v %s:/h alpine", "docker run -v %s:/h:ro alpine", "docker run -v%s:/h alpine",
			"docker run --volume %s:/h alpine", "docker run --volume=%s:/h alpine", "docker run -itv %s:/h alpine",
			"docker run -dit -v %s:/h alpine", "docker run -itv%s:/h alpine", "docker run --rm -Pv %s:/h alpine",
			"docker run --mount type=bind,source=%s,target=/h alpine", "docker run --mount=type=bind,src=%s,dst=/h alpine",
			"docker run --mount target=/h,readonly,source=%s alpine", "docker create -v %s:/h alpine",
			"docker container run -v %s:/h alpine", "docker container create --volume %s:/h alpine",
			"podman run -v %s:/h alpine", "podman create --mount type=bind,src=%s,dst=/h alpine",
			"nerdctl run -v %s:/h alpine", "sudo docker run -v %s:/h alpine", "env DOCKER_BUILDKIT=1 docker run -v %s:/h alpine",
			"docker compose run -v %s:/h app", "docker service create --mount type=bind,src=%s,dst=/h alpine",
			"docker service update --mount-add type=bind,src=%s,dst=/h web", "sh -c 'docker run -v %s:/h alpine'",
			"x=%s; docker run -v \"$x:/h\" alpine",
		} {
			if strings.HasPrefix(f, "x=") && strings.ContainsAny(src, "$~") {
				continue // a value known only in part: below
			}
			cmds = append(cmds, strings.ReplaceAll(f, "%s", src))
		}
	}
	cmds = append(cmds, "cd /root && docker run -v .:/h alpine", "cd /root && docker run -v ./.local:/h alpine",
		"cd /root/.local && podman run --volume ./state:/s alpine", "cd /etc && docker run -v ./warden:/w alpine")
	runBlind(t, p, sameCases(TierDestructive, true, cmds...))

	runExact(t, p, []exactCase{
		{"docker ps", "docker ps", TierRead},
		{"named volume", "docker run -v data:/data alpine", TierMutate},
		{"project dir", "docker run -v /srv/app:/app alpine", TierMutate},
		{"temp dir", "docker run -v /tmp/build:/b alpine", TierMutate},
		{"ports", "docker run -p 80:80 -e X=1 nginx", TierMutate},
		{"-e takes v", "docker run -ev alpine", TierMutate},
	})
	// A source known only at run time may be any of them.
	for _, c := range []string{"docker run -v \"$x:/h\" alpine", "x=$HOME/.local; docker run -v \"$x:/h\" alpine",
		"docker run -v \"$(pwd)\":/h alpine", "docker run --mount \"type=bind,src=$d,dst=/h\" alpine", "docker run -itv \"$d\":/h alpine"} {
		if v := p.Evaluate(Input{Command: c}); v.Tier < TierDestructive {
			t.Errorf("Evaluate(%q) = %s denied=%v (%s); want tier 3", c, v.Tier, v.Denied, v.Reason)
		}
	}
	// A host other than warden's own does not hold its state; the bind
	// keeps the tier it had.
	for _, c := range []string{"docker run -v /:/h alpine", "docker run -itv /root/.local:/h alpine"} {
		if v := p.Evaluate(Input{Command: c, Host: "db1"}); v.Denied || v.Tier < TierMutate {
			t.Errorf("Evaluate(%q, db1) = %s denied=%v (%s)", c, v.Tier, v.Denied, v.Reason)
		}
	}
}
