package policy

import "strings"

// Hardware register tools read with an address alone and write with a
// value: devmem ADDR [WIDTH [VALUE]] and devmem2 ADDR [TYPE [VALUE]]
// write physical memory, setpci REG=VALUE a PCI device's configuration,
// efivar -w an EFI variable. A write there can hang the machine or brick
// its firmware, so it is tier 3; the reads are tier 2, as reading device
// registers can have side effects.
func hwRegisterProgram(c *call) (Tier, string) {
	vals := c.vals()
	ops := operands(vals)
	switch c.name {
	case "devmem", "devmem2":
		if len(ops) >= 3 {
			return TierDestructive, c.name + ": writes physical memory"
		}
	case "setpci":
		for _, o := range ops {
			if strings.Contains(o, "=") {
				return TierDestructive, "setpci " + truncate(o, 32) + ": writes PCI configuration"
			}
		}
	case "efivar":
		if hasFlag(vals, 'w', "--write") || hasFlag(vals, 'A', "--append") {
			return TierDestructive, "efivar -w: writes an EFI variable"
		}
	}
	return TierMutate, c.name + ": reads device registers"
}
