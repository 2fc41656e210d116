/**
 * spec §2 Top navigation. The marketing pages are external and not part of this product, so
 * each menu says in a line what the platform offers instead of linking nowhere.
 */
export const visitorMenus: { label: string; description: string }[] = [
  {
    label: 'Platform',
    description:
      'Websites, bookings, payments and subscriptions, forms, email marketing and a customer list — in one place.',
  },
  {
    label: 'Use cases',
    description:
      'Built for coaches, personal trainers, gyms, dietitians and other small health and wellness businesses.',
  },
  {
    label: 'Pricing',
    description:
      'One monthly subscription for your business; your customers pay you directly by card.',
  },
  {
    label: 'Our customers',
    description:
      'Trusted by small businesses across the US, from one-person coaching practices to busy gyms.',
  },
  {
    label: 'Blog',
    description: 'Articles on running a coaching business are published on our marketing site.',
  },
];
