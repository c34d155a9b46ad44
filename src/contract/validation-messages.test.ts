/**
 * SPEC §5 lists the generic form messages users may see; they are Zod 3's wording. This pins
 * them, so a Zod upgrade that rewords them fails here instead of silently changing the product.
 */
import { describe, expect, it } from 'vitest';
import { z } from 'zod';

const messageOf = (schema: z.ZodTypeAny, value: unknown) => {
  const result = schema.safeParse(value);
  if (result.success) throw new Error('expected a validation failure');
  return result.error.issues[0].message;
};

describe('generic validation messages (SPEC §5)', () => {
  it.each([
    ['Required', z.object({ name: z.string() }).shape.name, undefined],
    ['Expected string, received number', z.string(), 42],
    ['Invalid input', z.union([z.string(), z.number()]), true],
    ['Invalid email', z.string().email(), 'not-an-email'],
    ['String must contain at least 10 character(s)', z.string().min(10), 'short'],
    ['Number must be greater than or equal to 0', z.number().min(0), -1],
  ] as const)('%s', (expected, schema, value) => {
    expect(messageOf(schema, value)).toBe(expected);
  });

  it('Invalid enum value', () => {
    expect(messageOf(z.enum(['individual', 'master_account']), 'other')).toMatch(
      /^Invalid enum value\. Expected/,
    );
  });
});
