import { assert, describe, it } from "@effect/vitest"
import { Effect, Schema } from "effect"
import { nonPublicKind } from "../../../src/tools/outbound/addressRanges.ts"
import { type Lookup, makeUrlPolicy, parseWebUrl } from "../../../src/tools/outbound/urlPolicy.ts"

describe("nonPublicKind", () => {
  it.each([
    ["0.0.0.0", "an unspecified"],
    ["127.0.0.1", "a loopback"],
    ["127.255.255.254", "a loopback"],
    ["10.0.0.0", "a private"],
    ["10.255.255.255", "a private"],
    ["172.16.0.1", "a private"],
    ["172.31.255.255", "a private"],
    ["192.168.1.1", "a private"],
    ["169.254.169.254", "a link-local"],
    ["100.64.0.1", "a carrier-grade NAT"],
    ["224.0.0.1", "a multicast"],
    ["255.255.255.255", "a reserved"],
    ["::", "an unspecified"],
    ["::1", "a loopback"],
    ["[::1]", "a loopback"],
    ["fc00::1", "a unique local"],
    ["fdff:ffff::1", "a unique local"],
    ["fe80::1", "a link-local"],
    ["fe80::1%eth0", "a link-local"],
    ["febf:ffff::1", "a link-local"],
    ["::ffff:127.0.0.1", "a loopback"],
    ["::ffff:7f00:1", "a loopback"],
    ["::ffff:10.1.2.3", "a private"],
    ["::ffff:a9fe:a9fe", "a link-local"],
    ["::127.0.0.1", "an IPv4-compatible"],
    ["ff02::1", "a multicast"],
    ["not-an-ip", "an unparseable"]
  ])("%s is %s address", (address, kind) => assert.strictEqual(nonPublicKind(address), kind))

  it.each([
    "8.8.8.8",
    "1.1.1.1",
    "9.255.255.255",
    "11.0.0.0",
    "172.15.255.255",
    "172.32.0.0",
    "192.167.255.255",
    "192.169.0.0",
    "126.255.255.255",
    "128.0.0.0",
    "169.253.255.255",
    "100.128.0.0",
    "2606:4700:4700::1111",
    "2001:db8::1",
    "::ffff:8.8.8.8",
    "fbff::1",
    "2a00::1"
  ])(
    "%s is public",
    (address) => assert.isUndefined(nonPublicKind(address))
  )

  const octet = Schema.Int.check(Schema.isBetween({ minimum: 0, maximum: 255 }))
  const ipv4 = Schema.Tuple([octet, octet, octet, octet])

  it.prop("an IPv4-mapped IPv6 address is classified as the IPv4 address it maps", [ipv4], ([[a, b, c, d]]) => {
    const dotted = `${a}.${b}.${c}.${d}`
    const hex = `::ffff:${((a << 8) | b).toString(16)}:${((c << 8) | d).toString(16)}`
    assert.strictEqual(nonPublicKind(`::ffff:${dotted}`), nonPublicKind(dotted))
    assert.strictEqual(nonPublicKind(hex), nonPublicKind(dotted))
  })

  // The ranges the policy must refuse, as [network, prefix length]; any host part lands inside.
  const required = [[0x0a000000, 8], [0xac100000, 12], [0xc0a80000, 16], [0x7f000000, 8], [0xa9fe0000, 16]] as const
  const hostBits = Schema.Int.check(Schema.isBetween({ minimum: 0, maximum: 0xffffffff }))
  const rangeIndex = Schema.Int.check(Schema.isBetween({ minimum: 0, maximum: required.length - 1 }))

  it.prop("every address of 10/8, 172.16/12, 192.168/16, 127/8 and 169.254/16 is refused, also IPv4-mapped", [
    rangeIndex,
    hostBits
  ], ([index, bits]) => {
    const [network, prefix] = required[index]!
    const value = (network | (bits & (2 ** (32 - prefix) - 1))) >>> 0
    const dotted = [24, 16, 8, 0].map((shift) => (value >>> shift) & 255).join(".")
    assert.isDefined(nonPublicKind(dotted), dotted)
    assert.isDefined(nonPublicKind(`::ffff:${dotted}`), dotted)
  })
})

const lookupFrom = (table: Record<string, ReadonlyArray<string>>): Lookup => async (hostname) => {
  const addresses = table[hostname]
  if (addresses === undefined) throw new Error(`ENOTFOUND ${hostname}`)
  return addresses.map((address) => ({ address, family: address.includes(":") ? 6 : 4 }))
}

const dns = lookupFrom({
  "public.example": ["93.184.216.34", "2606:2800:220:1::1"],
  "evil.example": ["127.0.0.1"],
  "sneaky.example": ["93.184.216.34", "10.0.0.5"],
  "intranet.example": ["10.1.1.1"],
  "v6.example": ["fd00::7"],
  "empty.example": []
})

describe("makeUrlPolicy", () => {
  const strict = makeUrlPolicy({ allowPrivate: false, allowedHosts: ["intranet.example", "192.168.1.10"], lookup: dns })
  const check = (hostname: string) => Effect.promise(() => strict.check(hostname))

  it.effect("allows a public host and names the address to connect to", () =>
    Effect.gen(function*() {
      assert.deepStrictEqual(yield* check("public.example"), { _tag: "Allowed", address: "93.184.216.34" })
      assert.deepStrictEqual(yield* check("8.8.8.8"), { _tag: "Allowed", address: "8.8.8.8" })
    }))

  it.effect("refuses a host name that resolves to loopback, or to any private address among public ones", () =>
    Effect.gen(function*() {
      assert.deepStrictEqual(yield* check("evil.example"), {
        _tag: "Refused",
        reason: "host evil.example resolves to a loopback address"
      })
      assert.deepStrictEqual(yield* check("EVIL.example"), {
        _tag: "Refused",
        reason: "host evil.example resolves to a loopback address"
      })
      assert.deepStrictEqual(yield* check("sneaky.example"), {
        _tag: "Refused",
        reason: "host sneaky.example resolves to a private address"
      })
      assert.deepStrictEqual(yield* check("v6.example"), {
        _tag: "Refused",
        reason: "host v6.example resolves to a unique local address"
      })
    }))

  it.effect("refuses IP literals without asking DNS, in URL or plain form", () =>
    Effect.gen(function*() {
      assert.deepStrictEqual(yield* check("[::1]"), { _tag: "Refused", reason: "::1 is a loopback address" })
      assert.deepStrictEqual(yield* check("0.0.0.0"), { _tag: "Refused", reason: "0.0.0.0 is an unspecified address" })
      assert.deepStrictEqual(yield* check("[::ffff:7f00:1]"), {
        _tag: "Refused",
        reason: "::ffff:7f00:1 is a loopback address"
      })
    }))

  it.effect("lets listed hosts through whatever they resolve to", () =>
    Effect.gen(function*() {
      assert.deepStrictEqual(yield* check("intranet.example"), { _tag: "Allowed", address: "10.1.1.1" })
      assert.deepStrictEqual(yield* check("192.168.1.10"), { _tag: "Allowed", address: "192.168.1.10" })
      assert.strictEqual((yield* check("192.168.1.11"))._tag, "Refused")
    }))

  it.effect("allows every address when private addresses are allowed", () =>
    Effect.gen(function*() {
      const open = makeUrlPolicy({ allowPrivate: true, allowedHosts: [], lookup: dns })
      assert.deepStrictEqual(yield* Effect.promise(() => open.check("evil.example")), {
        _tag: "Allowed",
        address: "127.0.0.1"
      })
    }))

  it.effect("tells an unresolvable host from a refused one", () =>
    Effect.gen(function*() {
      assert.deepStrictEqual(yield* check("nowhere.example"), {
        _tag: "Unresolved",
        reason: "cannot resolve host nowhere.example"
      })
      assert.deepStrictEqual(yield* check("empty.example"), {
        _tag: "Unresolved",
        reason: "host empty.example has no address"
      })
    }))

  it.effect("resolves with node:dns by default: localhost is loopback", () =>
    Effect.gen(function*() {
      const system = makeUrlPolicy({ allowPrivate: false, allowedHosts: [] })
      const decision = yield* Effect.promise(() => system.check("localhost"))
      assert.strictEqual(decision._tag, "Refused")
    }))
})

describe("parseWebUrl", () => {
  it("accepts absolute http and https URLs", () => {
    assert.strictEqual((parseWebUrl("https://example.com/a?b=1") as URL).href, "https://example.com/a?b=1")
    assert.strictEqual((parseWebUrl("HTTP://Example.com") as URL).href, "http://example.com/")
  })
  it.each([
    ["file:///etc/passwd", "only http and https URLs are allowed, not file:"],
    ["data:text/html,hi", "only http and https URLs are allowed, not data:"],
    ["chrome://settings", "only http and https URLs are allowed, not chrome:"],
    ["ftp://example.com", "only http and https URLs are allowed, not ftp:"],
    ["example.com", "not an absolute URL: example.com"]
  ])("refuses %s", (url, reason) => assert.strictEqual(parseWebUrl(url), reason))
})
