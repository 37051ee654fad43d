import { ROLE_LABELS, type SignedInUser } from '../api/types.js';
import { signOut } from '../api/session.js';
import { useProfile } from '../api/queries.js';
import { Link, paths, type Route } from '../router.js';

function NavLink({ to, current, label }: { to: string; current: boolean; label: string }) {
  return (
    <Link to={to} aria-current={current ? 'page' : undefined}>
      {label}
    </Link>
  );
}

/** The top of every signed-in page: the organization, where the user can go, and who is signed in. */
export function TopBar({ user, route }: { user: SignedInUser; route: Route }) {
  const profile = useProfile(true);
  const isAdmin = user.role === 'admin';
  const ownClient = user.role === 'client_viewer' ? user.client_id : null;
  return (
    <header className="topbar">
      <span className="brand">Agency Desk</span>
      <nav aria-label="Main" className="topbar-nav">
        {ownClient ? (
          <NavLink to={paths.client(ownClient)} current={route.page === 'client'} label="Locations" />
        ) : (
          <NavLink to={paths.clients} current={route.page === 'clients' || route.page === 'client'} label="Clients" />
        )}
        {isAdmin && <NavLink to={paths.users} current={route.page === 'users'} label="Users" />}
        {isAdmin && <NavLink to={paths.backups} current={route.page === 'backups'} label="Backups" />}
        <NavLink to={paths.tokens} current={route.page === 'tokens'} label="Scripts & API tokens" />
      </nav>
      {/* The organization arrives after the first draw (GET /api/me): on the right, whose end does not move,
          it pushes nothing a person is about to click (it once moved the pages' links under the pointer). */}
      <span className="topbar-org">{profile.data?.organization.name}</span>
      <div className="topbar-user" aria-label="Signed in as">
        <span className="topbar-email" data-testid="signed-in-user">
          {user.email}
        </span>
        <span className={`role-badge role-${user.role}`} data-testid="signed-in-role">
          {ROLE_LABELS[user.role]}
        </span>
        <button type="button" className="button button-quiet" onClick={() => void signOut()}>
          Sign out
        </button>
      </div>
    </header>
  );
}
