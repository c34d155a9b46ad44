/** Vitest setup for the API suite: sign-ins at a test-only scrypt cost (see passwords.ts). */
import { cheapenPasswordHashingForTests } from '../../src/server/auth/passwords';

cheapenPasswordHashingForTests();
