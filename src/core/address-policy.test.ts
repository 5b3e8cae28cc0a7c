import { describe, expect, it } from 'vitest';
import { isIpLiteral, isPublicAddress, webhookUrlProblem } from './address-policy.ts';

describe('isPublicAddress', () => {
  // [address, public?]: every refused range from inside, at its edges, and its public neighbours.
  const rows: [string, boolean][] = [
    // public IPv4
    ['8.8.8.8', true],
    ['1.1.1.1', true],
    ['93.184.215.14', true],
    ['223.255.255.255', true],
    // 0.0.0.0/8
    ['0.0.0.0', false],
    ['0.255.255.255', false],
    ['1.0.0.0', true],
    // 10/8
    ['9.255.255.255', true],
    ['10.0.0.0', false],
    ['10.0.0.1', false],
    ['10.255.255.255', false],
    ['11.0.0.0', true],
    // 100.64/10 (CGNAT)
    ['100.63.255.255', true],
    ['100.64.0.0', false],
    ['100.100.100.200', false],
    ['100.127.255.255', false],
    ['100.128.0.0', true],
    // 127/8
    ['126.255.255.255', true],
    ['127.0.0.1', false],
    ['127.1.2.3', false],
    ['127.255.255.255', false],
    ['128.0.0.0', true],
    // 169.254/16 (link-local, cloud metadata)
    ['169.253.255.255', true],
    ['169.254.0.0', false],
    ['169.254.169.254', false],
    ['169.254.255.255', false],
    ['169.255.0.0', true],
    // 172.16/12
    ['172.15.255.255', true],
    ['172.16.0.0', false],
    ['172.20.1.1', false],
    ['172.31.255.255', false],
    ['172.32.0.0', true],
    // 192.168/16 and the 192.0.0/24, 192.0.2/24, 192.88.99/24 specials
    ['192.167.255.255', true],
    ['192.168.0.1', false],
    ['192.168.255.255', false],
    ['192.169.0.0', true],
    ['192.0.0.8', false],
    ['192.0.2.1', false],
    ['192.0.3.0', true],
    ['192.88.99.1', false],
    // benchmarking, documentation
    ['198.17.255.255', true],
    ['198.18.0.0', false],
    ['198.19.255.255', false],
    ['198.20.0.0', true],
    ['198.51.100.7', false],
    ['203.0.113.7', false],
    // multicast, reserved, broadcast
    ['224.0.0.1', false],
    ['239.255.255.255', false],
    ['240.0.0.1', false],
    ['255.255.255.255', false],
    // public IPv6
    ['2001:4860:4860::8888', true],
    ['2606:4700:4700::1111', true],
    ['2a00:1450:4001:80b::200e', true],
    ['[2606:4700:4700::1111]', true],
    // IPv6 loopback, unspecified, IPv4-compatible
    ['::1', false],
    ['[::1]', false],
    ['0:0:0:0:0:0:0:1', false],
    ['::', false],
    ['::8.8.8.8', false],
    // link-local fe80::/10 (and the deprecated site-local fec0::/10)
    ['fe80::1', false],
    ['fe80::1%eth0', false],
    ['febf:ffff::1', false],
    ['fec0::1', false],
    // unique-local fc00::/7, the EC2 metadata address
    ['fc00::1', false],
    ['fd12:3456::1', false],
    ['fdff:ffff::1', false],
    ['fd00:ec2::254', false],
    // multicast, outside 2000::/3
    ['ff02::1', false],
    ['ff0e::1', false],
    ['4000::1', false],
    ['1fff:ffff::1', false],
    // special blocks inside 2000::/3
    ['2001::1', false], // Teredo
    ['2001:2::1', false], // benchmarking
    ['2001:1ff:ffff::1', false],
    ['2001:200::1', true],
    ['2001:db8::1', false],
    ['3fff::1', false],
    ['3fff:1000::1', true],
    // IPv4-mapped IPv6
    ['::ffff:127.0.0.1', false],
    ['[::ffff:127.0.0.1]', false],
    ['::ffff:7f00:1', false],
    ['0:0:0:0:0:ffff:7f00:1', false],
    ['::ffff:10.0.0.1', false],
    ['::ffff:172.16.0.1', false],
    ['::ffff:192.168.1.1', false],
    ['::ffff:100.64.0.1', false],
    ['::ffff:169.254.169.254', false],
    ['::ffff:a9fe:a9fe', false],
    ['::ffff:0.0.0.0', false],
    ['::ffff:224.0.0.1', false],
    ['::ffff:8.8.8.8', true],
    ['::ffff:808:808', true],
    // NAT64 and 6to4 judged by the embedded IPv4 address
    ['64:ff9b::127.0.0.1', false],
    ['64:ff9b::a00:1', false],
    ['64:ff9b::8.8.8.8', true],
    ['64:ff9b:1::8.8.8.8', false],
    ['2002:7f00:1::', false],
    ['2002:a9fe:a9fe::1', false],
    ['2002:808:808::1', true],
    // not addresses
    ['', false],
    ['localhost', false],
    ['example.com', false],
    ['256.1.1.1', false],
    ['010.0.0.1', false],
    ['1.2.3', false],
    ['2130706433', false],
    [':::1', false],
  ];

  it.each(rows)('%s → public %s', (ip, expected) => {
    expect(isPublicAddress(ip)).toBe(expected);
  });
});

describe('isIpLiteral', () => {
  it.each([
    ['127.0.0.1', true],
    ['[::1]', true],
    ['example.com', false],
    ['1.2.3.4.example', false],
  ] as const)('%s → %s', (host, expected) => {
    expect(isIpLiteral(host)).toBe(expected);
  });
});

describe('webhookUrlProblem', () => {
  const long = `https://hooks.example.com/${'a'.repeat(2030)}`;
  // [url, problem when private targets are denied (undefined = accepted), the same when allowed]
  const rows: [string, RegExp | undefined, RegExp | undefined][] = [
    ['https://hooks.example.com/tubescribe?token=abc', undefined, undefined],
    ['https://hooks.example.com:8443/x', undefined, undefined],
    ['https://8.8.8.8/hook', undefined, undefined],
    ['https://[2606:4700:4700::1111]/hook', undefined, undefined],
    ['https://HOOKS.Example.COM./x', undefined, undefined],
    // scheme
    ['http://hooks.example.com/x', /must use https$/, undefined],
    ['ftp://hooks.example.com/x', /must use https/, /must use https or http/],
    ['javascript:alert(1)', /must use https/, /must use https or http/],
    ['file:///etc/passwd', /must use https/, /must use https or http/],
    ['ws://hooks.example.com/', /must use https/, /must use https or http/],
    // not a URL, too long
    ['hooks.example.com/x', /not an absolute URL/, /not an absolute URL/],
    ['', /not an absolute URL/, /not an absolute URL/],
    ['https://', /not an absolute URL/, /not an absolute URL/],
    [long, /longer than 2048/, /longer than 2048/],
    [`https://hooks.example.com/${'a'.repeat(2000)}`, undefined, undefined],
    // credentials
    ['https://user@hooks.example.com/x', /user name or password/, /user name or password/],
    ['https://user:pass@hooks.example.com/x', /user name or password/, /user name or password/],
    ['https://:pass@hooks.example.com/x', /user name or password/, /user name or password/],
    // local names
    ['https://localhost/x', /local host \(localhost\)/, undefined],
    ['https://LOCALHOST./x', /local host/, undefined],
    ['https://api.localhost/x', /local host/, undefined],
    ['https://printer.local/x', /local host/, undefined],
    ['https://metadata.google.internal/x', /local host/, undefined],
    ['https://router.home.arpa/x', /local host/, undefined],
    ['https://intranet/x', /fully qualified/, undefined],
    ['https://localhostx.example.com/x', undefined, undefined],
    // literal addresses
    ['https://127.0.0.1/x', /non-public address \(127\.0\.0\.1\)/, undefined],
    ['http://127.0.0.1:8080/x', /must use https/, undefined],
    ['https://10.0.0.1/', /non-public/, undefined],
    ['https://172.16.5.4/', /non-public/, undefined],
    ['https://192.168.1.1/', /non-public/, undefined],
    ['https://100.64.0.1/', /non-public/, undefined],
    ['https://169.254.169.254/latest/meta-data/', /non-public/, undefined],
    ['https://0.0.0.0/', /non-public/, undefined],
    ['https://224.0.0.1/', /non-public/, undefined],
    ['https://[::1]/', /non-public/, undefined],
    ['https://[fe80::1]/', /non-public/, undefined],
    ['https://[fd00:ec2::254]/', /non-public/, undefined],
    ['https://[::ffff:127.0.0.1]/', /non-public/, undefined],
    ['https://[::ffff:169.254.169.254]/', /non-public/, undefined],
    // forms the URL parser turns into 127.0.0.1 / 10.0.0.1
    ['https://2130706433/', /non-public address \(127\.0\.0\.1\)/, undefined],
    ['https://0x7f.1/', /non-public address \(127\.0\.0\.1\)/, undefined],
    ['https://127.1/', /non-public address \(127\.0\.0\.1\)/, undefined],
    ['https://012.0.0.1/', /non-public address \(10\.0\.0\.1\)/, undefined],
  ];

  it.each(rows)('%s', (url, denied, allowed) => {
    const whenDenied = webhookUrlProblem(url, false);
    const whenAllowed = webhookUrlProblem(url, true);
    if (denied === undefined) expect(whenDenied).toBeUndefined();
    else expect(whenDenied).toMatch(denied);
    if (allowed === undefined) expect(whenAllowed).toBeUndefined();
    else expect(whenAllowed).toMatch(allowed);
  });
});
