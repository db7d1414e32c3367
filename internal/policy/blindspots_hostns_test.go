package policy

import "testing"

// A container given one of the host's namespaces: its processes (pid),
// shared memory (ipc), root (userns), loopback services and abstract
// sockets (net), host name (uts) or cgroups (cgroupns).
func TestBlindContainerHostNamespaces(t *testing.T) {
	p := protectedPolicy(t)
	runBlindHosts(t, p, sameCases(TierDestructive, false,
		"docker run --net=host alpine sh",
		"docker run --network=host alpine",
		"docker run --net host alpine",
		"docker run --network host -d nginx",
		"docker container run --network=host alpine",
		"docker create --net=host alpine",
		"docker container create --network host alpine",
		"podman run --network=host alpine",
		"podman run --net host alpine",
		"podman run --network=ns:/proc/1/ns/net alpine",
		"podman create --pid ns:/proc/1/ns/pid alpine",
		"podman run --userns=ns:/proc/1/ns/user alpine",
		"nerdctl run --net host alpine",
		"sudo docker run --net=host alpine",
		"docker run --uts=host alpine hostname x",
		"docker run --uts host alpine",
		"docker run --cgroupns=host alpine",
		"docker run --cgroupns host alpine",
		"docker run --pid=host alpine",
		"docker run --pid host alpine",
		"docker run --ipc=host alpine",
		"docker run --userns host alpine",
	))
	// With the host's PID namespace, by name or by path, what the container
	// runs meets the deny list: kill -9 -1 there kills the host's processes.
	runBlindHosts(t, p, sameCases(TierDestructive, true,
		"podman run --pid=ns:/proc/1/ns/pid alpine kill -9 -1",
		"podman run --pid ns:/proc/1/ns/pid alpine kill -9 -1",
		"docker run --pid=HOST alpine kill -9 -1",
	))
	runExactHosts(t, p, []exactCase{
		{"bridge network", "docker run --network=bridge alpine", TierMutate},
		{"named network", "docker run --net mynet alpine", TierMutate},
		{"published port", "docker run -p 8080:80 nginx", TierMutate},
		{"another container's network", "docker run --network=container:web alpine", TierMutate},
		{"host word as the command", "docker run alpine host example.org", TierMutate},
	})
}
