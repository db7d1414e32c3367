package policy

import "strings"

// nvidia-smi reads by default, but dozens of its options set the GPU
// (clocks, power, compute and driver modes, accounting, MIG instances,
// NVLink counters) and -f and --debug write files, and NVIDIA adds more
// with each driver. So it reads only with options listed here, per
// subcommand; anything else is tier 2.

// nvidiaSmiReads are the options that only report, by subcommand ("" is
// none); topo has no setters and takes anything.
var nvidiaSmiReads = map[string]map[string]bool{
	"": set(`-q --query -d --display -i --id -x --xml-format -u --unit -l --loop -lms --loop-ms
		-L --list-gpus -B --list-excluded-gpus -h --help --version --dtd --format`),
	"dmon":   set(`-i --id -d --delay -c --count -s --select -o --options -h --help --format -gi -ci`),
	"pmon":   set(`-i --id -d --delay -c --count -s --select -o --options -h --help`),
	"nvlink": set(`-s --status -c --capabilities -p --pcibusid -R --remotelinkinfo -e --error-counters -gt --getthroughput -i --id -l --link -h --help`),
	"mig":    set(`-lgi --list-gpu-instances -lgip --list-gpu-instance-profiles -lgipp --list-gpu-instance-possible-placements -lci --list-compute-instances -lcip --list-compute-instance-profiles -i --id -gi --gpu-instance-id -ci --compute-instance-id -h --help`),
	"vgpu":   set(`-q --query -s --supported -c --creatable -i --id -h --help`),
}

// nvidiaSmiProgram classifies nvidia-smi by nvidiaSmiReads; --query-*
// (--query-gpu=…, --query-compute-apps=…) only select what -q prints.
func nvidiaSmiProgram(vals []string) (Tier, string) {
	sub, opts := "", vals
	if len(vals) > 0 && !strings.HasPrefix(vals[0], "-") {
		sub, opts = vals[0], vals[1:]
	}
	if sub == "topo" {
		return TierRead, "nvidia-smi topo"
	}
	reads, ok := nvidiaSmiReads[sub]
	if !ok {
		return TierMutate, "nvidia-smi " + sub + ": changes GPU settings"
	}
	for _, v := range opts {
		if !strings.HasPrefix(v, "-") {
			continue // a value: -i 0, -d MEMORY
		}
		name, _, _ := strings.Cut(v, "=")
		if !reads[name] && !(sub == "" && strings.HasPrefix(name, "--query-")) {
			return TierMutate, "nvidia-smi " + truncate(v, 32) + ": changes GPU settings or writes a file"
		}
	}
	return TierRead, "nvidia-smi"
}
