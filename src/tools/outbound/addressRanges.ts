import { BlockList, isIP } from "node:net"

/**
 * Address ranges the browser must not reach unless the server allows it:
 * everything that is not the public internet. Node's BlockList also matches
 * IPv4-mapped IPv6 addresses (`::ffff:127.0.0.1`) against the IPv4 ranges.
 */
const ranges: ReadonlyArray<readonly [label: string, network: string, prefix: number]> = [
  ["an unspecified", "0.0.0.0", 8],
  ["a loopback", "127.0.0.0", 8],
  ["a private", "10.0.0.0", 8],
  ["a private", "172.16.0.0", 12],
  ["a private", "192.168.0.0", 16],
  ["a carrier-grade NAT", "100.64.0.0", 10],
  ["a link-local", "169.254.0.0", 16],
  ["a reserved", "192.0.0.0", 24],
  ["a benchmarking", "198.18.0.0", 15],
  ["a multicast", "224.0.0.0", 4],
  ["a reserved", "240.0.0.0", 4],
  ["an unspecified", "::", 128],
  ["a loopback", "::1", 128],
  // IPv4-compatible addresses (deprecated) embed an IPv4 address some stacks still route.
  ["an IPv4-compatible", "::", 96],
  ["a unique local", "fc00::", 7],
  ["a link-local", "fe80::", 10],
  ["a site-local", "fec0::", 10],
  ["a multicast", "ff00::", 8]
]

const lists = ranges.map(([label, network, prefix]) => {
  const list = new BlockList()
  list.addSubnet(network, prefix, network.includes(":") ? "ipv6" : "ipv4")
  return { label, list }
})

/**
 * What kind of non-public address `address` is ("a loopback", "a private", …),
 * or `undefined` for a public one. Anything that is not an IP address at all
 * counts as non-public, so a parsing surprise never opens the door.
 */
export const nonPublicKind = (address: string): string | undefined => {
  const bare = address.replace(/^\[|\]$/g, "").replace(/%.*$/, "")
  const family = isIP(bare)
  if (family === 0) return "an unparseable"
  const type = family === 4 ? "ipv4" : "ipv6"
  return lists.find(({ list }) => list.check(bare, type))?.label
}
