import type { CurrentUser } from '@platform/schema/me/me.zod';

/** The profile picture, or the initials on the brand colour; decorative (the name is beside it). */
export function Avatar({
  user,
}: {
  user: Pick<CurrentUser, 'fullName' | 'firstName' | 'lastName' | 'attributes'>;
}) {
  const src = user.attributes.profileAvatarImageUrl;
  if (src) return <img className="avatar" src={src} alt="" width={32} height={32} />;
  const initials = `${user.firstName.charAt(0)}${user.lastName.charAt(0)}`.toUpperCase() || '?';
  return (
    <span className="avatar" aria-hidden="true">
      {initials}
    </span>
  );
}
