export default function AdminLayout() {
  return <div>AdminLayout</div>;
}
