export default function AdminLoginPage() {
  return <div>AdminLoginPage</div>;
}
