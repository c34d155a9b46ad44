/** SPEC §2: the client search matches company, e-mail and first/last name, case-insensitive substring. */
import type { AdminClientListItem } from '../../../contract/admin';

type Searchable = Pick<AdminClientListItem, 'companyName' | 'email' | 'firstName' | 'lastName'>;

export function matchesClientSearch(client: Searchable, query: string): boolean {
  const needle = query.trim().toLowerCase();
  if (!needle) return true;
  const fields = [
    client.companyName,
    client.email,
    client.firstName,
    client.lastName,
    `${client.firstName} ${client.lastName}`,
  ];
  return fields.some((field) => (field ?? '').toLowerCase().includes(needle));
}

export function filterClients<T extends Searchable>(clients: readonly T[], query: string): T[] {
  return clients.filter((client) => matchesClientSearch(client, query));
}
