/**
 * A recording DNS server on UDP loopback, speaking the wire format of RFC 1035 for A and AAAA
 * questions: a name in `records` is answered with its addresses (none of a type: an empty answer, as
 * NODATA), a name in `silent` is never answered, any other name is NXDOMAIN. Every question is recorded.
 */
import { createSocket as udpSocket, type RemoteInfo } from 'node:dgram';

const TYPE = { A: 1, AAAA: 28 } as const;
const NXDOMAIN = 3;

export interface DnsRecords {
  a?: string[];
  aaaa?: string[];
}

export interface DnsStandIn {
  /** `127.0.0.1:port`, for `Resolver.setServers`. */
  server: string;
  questions: { name: string; type: 'A' | 'AAAA' | number }[];
  close(): Promise<void>;
}

/** The 16 bytes of an IPv6 address written in full or with `::`. */
function ipv6Bytes(address: string): Buffer {
  const [head, tail] = address.includes('::') ? address.split('::') : [address, ''];
  const groups = (part: string) => (part ? part.split(':').map((g) => parseInt(g, 16)) : []);
  const front = groups(head);
  const back = groups(tail);
  const all = [...front, ...new Array(8 - front.length - back.length).fill(0), ...back];
  const bytes = Buffer.alloc(16);
  for (const [i, g] of all.entries()) bytes.writeUInt16BE(g, i * 2);
  return bytes;
}

function readName(message: Buffer, offset: number): { name: string; end: number } {
  const labels: string[] = [];
  let at = offset;
  while (message[at] !== 0) {
    const length = message[at];
    labels.push(message.subarray(at + 1, at + 1 + length).toString('ascii'));
    at += 1 + length;
  }
  return { name: labels.join('.').toLowerCase(), end: at + 1 };
}

function answer(query: Buffer, questionEnd: number, rcode: number, rdatas: Buffer[], type: number): Buffer {
  const header = Buffer.alloc(12);
  header.writeUInt16BE(query.readUInt16BE(0), 0); // id
  header.writeUInt16BE(0x8000 | 0x0400 | (query.readUInt16BE(2) & 0x0100) | 0x0080 | rcode, 2); // QR AA RD RA
  header.writeUInt16BE(1, 4);
  header.writeUInt16BE(rdatas.length, 6);
  const question = query.subarray(12, questionEnd);
  const records = rdatas.map((rdata) => {
    const fixed = Buffer.alloc(12);
    fixed.writeUInt16BE(0xc00c, 0); // the name: a pointer to the question's
    fixed.writeUInt16BE(type, 2);
    fixed.writeUInt16BE(1, 4); // class IN
    fixed.writeUInt32BE(60, 6);
    fixed.writeUInt16BE(rdata.length, 10);
    return Buffer.concat([fixed, rdata]);
  });
  return Buffer.concat([header, question, ...records]);
}

export async function startDnsStandIn(records: Record<string, DnsRecords>, silent: string[] = []): Promise<DnsStandIn> {
  const known = new Map(Object.entries(records).map(([name, r]) => [name.toLowerCase(), r]));
  const quiet = new Set(silent.map((s) => s.toLowerCase()));
  const questions: DnsStandIn['questions'] = [];
  const socket = udpSocket('udp4');
  socket.on('message', (query: Buffer, from: RemoteInfo) => {
    const { name, end } = readName(query, 12);
    const type = query.readUInt16BE(end);
    questions.push({ name, type: type === TYPE.A ? 'A' : type === TYPE.AAAA ? 'AAAA' : type });
    if (quiet.has(name)) return;
    const record = known.get(name);
    const rdatas =
      type === TYPE.A
        ? (record?.a ?? []).map((ip) => Buffer.from(ip.split('.').map(Number)))
        : type === TYPE.AAAA
          ? (record?.aaaa ?? []).map(ipv6Bytes)
          : [];
    socket.send(answer(query, end + 4, record ? 0 : NXDOMAIN, rdatas, type), from.port, from.address);
  });
  await new Promise<void>((resolve) => socket.bind(0, '127.0.0.1', resolve));
  return {
    server: `127.0.0.1:${socket.address().port}`,
    questions,
    close: () => new Promise((resolve) => socket.close(() => resolve())),
  };
}
