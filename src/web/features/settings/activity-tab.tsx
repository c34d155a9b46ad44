/** Settings › Activity (issue 36): what the client's people did. Filled in by the activity log work. */
export function ActivityTab() {
  return <h2 className="font-semibold text-lg">Activity</h2>;
}
