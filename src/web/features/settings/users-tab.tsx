/** Settings › Users (issue 36): the client's people. Filled in by the teams browser work. */
export function UsersTab() {
  return <h2 className="font-semibold text-lg">Users</h2>;
}
