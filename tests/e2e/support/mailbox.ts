/** The SMTP stand-in's mailbox, read by specs (issue 36's invitations arrive there). */
import { type APIRequestContext, expect } from '@playwright/test';
import { SMTP_SIM_URL } from './env';

interface ReceivedEmail {
  to: string[];
  subject: string;
  text: string;
}

/** Waits for the newest e-mail to `to` holding an /accept-invite link, and answers that link. */
export async function acceptInviteLinkFor(request: APIRequestContext, to: string): Promise<string> {
  let link = '';
  await expect
    .poll(
      async () => {
        const answer = await request.get(`${SMTP_SIM_URL}/_sim/messages`);
        const { messages } = (await answer.json()) as { messages: ReceivedEmail[] };
        const mail = [...messages].reverse().find((m) => m.to.includes(to));
        link = /https?:\/\/\S+\/accept-invite\?token=[\w%&=.-]+/.exec(mail?.text ?? '')?.[0] ?? '';
        return link;
      },
      { message: `an invitation e-mail to ${to}`, timeout: 15_000 },
    )
    .not.toBe('');
  return link;
}
