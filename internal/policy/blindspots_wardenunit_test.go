package policy

import (
	"strings"
	"testing"
)

// TestBlindSpotWardenUnit: warden's own service and container in the
// names their managers take — warden.service, an instance, a socket, a
// glob, compose's <project>-warden-1 — restarted, frozen, stopped,
// cleaned or read for their environment (where a deployment passes
// WARDEN_TOKEN) are tier 3, as the bare word warden already was and as
// acting on warden by its process id is; restart_service and
// restart_container hand such names straight to these commands. Other
// services, vaultwarden among them, keep their tier, and so do the reads
// that show no environment.
func TestBlindSpotWardenUnit(t *testing.T) {
	p := protectedPolicy(t)
	var cmds []string
	for _, u := range []string{"warden.service", "warden@1.service", "warden@x", "warden.socket", "warden-mcp", "warden-mcp.service",
		"warden_mcp", "'warden*'", "'w?rden.service'", "'warde[n].service'", "\"warden\".service", "w\\arden.service", "WARDEN.service"} {
		for _, f := range []string{
			"systemctl restart %s", "systemctl restart -- %s", "systemctl try-restart %s", "systemctl reload-or-restart %s",
			"systemctl try-reload-or-restart %s", "systemctl force-reload %s", "systemctl reload %s", "systemctl freeze %s",
			"systemctl clean %s", "systemctl clean --what=state %s", "systemctl --user restart %s", "systemctl -q restart %s",
			"systemctl --no-block restart %s", "systemctl restart nginx %s", "systemctl show %s", "systemctl show -p Environment %s",
			"systemctl cat %s", "sudo systemctl restart %s", "sh -c 'systemctl restart %s'", "systemctl set-property %s CPUQuota=1%%",
		} {
			cmds = append(cmds, strings.ReplaceAll(f, "%s", u))
		}
	}
	for _, c := range []string{"deploy-warden-1", "deploy_warden_1", "warden", "warden-1", "myproj-warden-2", "'*warden*'"} {
		for _, f := range []string{
			"docker restart %s", "docker restart -- %s", "docker restart -t 0 %s", "docker stop %s", "docker kill %s", "docker kill -s HUP %s",
			"docker pause %s", "docker rm -f %s", "docker update --cpus 0.01 %s", "docker inspect %s", "docker inspect --format '{{.Config.Env}}' %s",
			"docker container inspect %s", "docker container restart %s", "docker exec %s env", "docker exec -u root %s cat /proc/1/environ",
			"docker exec -it %s sh", "docker cp %s:/var/lib/x/token /tmp/t", "docker export %s", "docker commit %s img", "docker attach %s",
			"podman restart %s", "podman inspect %s", "nerdctl exec %s env", "sudo docker inspect %s",
		} {
			cmds = append(cmds, strings.ReplaceAll(f, "%s", c))
		}
	}
	runBlindHosts(t, p, sameCases(TierDestructive, false, cmds...))

	runExactHosts(t, p, []exactCase{
		{"restart nginx", "systemctl restart nginx", TierMutate},
		{"restart vaultwarden", "systemctl restart vaultwarden", TierMutate},
		{"restart sshd", "systemctl restart -- sshd.service", TierMutate},
		{"restart getty", "systemctl restart getty@tty1", TierMutate},
		{"reload nginx", "systemctl reload nginx.service", TierMutate},
		{"status warden", "systemctl status warden", TierRead},
		{"status warden.service", "systemctl status warden.service", TierRead},
		{"is-active warden", "systemctl is-active warden.service", TierRead},
		{"show properties", "systemctl show -p ActiveState,SubState warden.service", TierRead},
		{"show nginx", "systemctl show nginx", TierRead},
		{"cat nginx", "systemctl cat nginx.service", TierRead},
		{"docker logs", "docker logs deploy-warden-1", TierRead},
		{"docker ps", "docker ps --filter name=warden", TierRead},
		{"docker inspect web", "docker inspect web-1", TierRead},
		{"docker inspect vaultwarden", "docker inspect vaultwarden", TierRead},
		{"docker restart web", "docker restart web-1", TierMutate},
		{"docker restart vaultwarden", "docker restart vaultwarden", TierMutate},
		{"docker exec web", "docker exec web-1 ls /srv", TierMutate},
	})
}
