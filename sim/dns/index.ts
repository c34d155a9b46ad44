/**
 * A small authoritative DNS server standing in for the agency's domain: it answers TXT
 * questions over UDP from records set by the test or the offline tour (SPF, DKIM, DMARC), NXDOMAIN
 * for names it does not hold, and can be told to stay silent (an unreachable resolver) or answer
 * SERVFAIL. Built on the `dns2` package's wire format; point DNS_SERVERS at `address`.
 * Not a security boundary: bind it to loopback.
 */
import dns2 from 'dns2';

const { Packet } = dns2;

export interface DnsSim {
  /** "127.0.0.1:PORT", for DNS_SERVERS. */
  address: string;
  /** Replaces the TXT records of a name (each record one string; long ones are split in 255s). */
  setTxt(name: string, records: string[]): void;
  /** Removes every record. */
  clear(): void;
  /** 'answer' (default), 'silent' (drops questions: the resolver times out) or 'servfail'. */
  mode(mode: 'answer' | 'silent' | 'servfail'): void;
  /** The names asked, lowercase, in order. */
  questions: string[];
  close(): Promise<void>;
}

/** A TXT record's character-strings are at most 255 bytes each (RFC 1035 §3.3.14). */
function chunks(text: string): string[] {
  const out: string[] = [];
  for (let i = 0; i < text.length; i += 255) out.push(text.slice(i, i + 255));
  return out.length ? out : [''];
}

export async function startDnsSim(options: { port?: number; host?: string } = {}): Promise<DnsSim> {
  const host = options.host ?? '127.0.0.1';
  const txt = new Map<string, string[]>();
  const questions: string[] = [];
  let current: 'answer' | 'silent' | 'servfail' = 'answer';

  const server = dns2.createServer({
    udp: true,
    handle: (request, send) => {
      const [question] = request.questions;
      const name = (question?.name ?? '').toLowerCase().replace(/\.$/, '');
      questions.push(name);
      if (current === 'silent') return;
      const response = Packet.createResponseFromRequest(request);
      response.header.aa = 1;
      if (current === 'servfail') {
        response.header.rcode = Packet.RCODE.SERVFAIL;
        return send(response);
      }
      const records = txt.get(name);
      if (!records) {
        response.header.rcode = Packet.RCODE.NXDOMAIN;
        return send(response);
      }
      // A name that exists answers its TXT records (none: NOERROR with no answers, NODATA).
      if (question.type === Packet.TYPE.TXT || question.type === Packet.TYPE.ANY)
        for (const record of records)
          response.answers.push(
            Packet.createResourceFromQuestion(question, {
              type: Packet.TYPE.TXT,
              class: Packet.CLASS.IN,
              ttl: 60,
              data: chunks(record),
            }),
          );
      send(response);
    },
  });
  const addresses = await server.listen({ udp: { port: options.port ?? 0, address: host } });
  const port = addresses.udp?.port ?? options.port ?? 0;

  return {
    address: `${host}:${port}`,
    setTxt(name, records) {
      txt.set(name.toLowerCase().replace(/\.$/, ''), records);
    },
    clear() {
      txt.clear();
      questions.length = 0;
      current = 'answer';
    },
    mode(mode) {
      current = mode;
    },
    questions,
    close: () => server.close(),
  };
}
