import { z } from 'zod';

/**
 * The owner's home (issue 14): the setup checklist and today's figures. Each part is present
 * only for those whose claims cover it; null otherwise.
 */
export const orgHomeSchema = z.object({
  setup: z.object({
    /** manage-org-branding: the app has a logo or its look was changed. */
    branding: z.boolean().nullable(),
    /** manage-org-staff: someone besides the founder is on the team. */
    team: z.boolean().nullable(),
    /** view-customers: at least one customer on the list. */
    customers: z.boolean().nullable(),
  }),
  figures: z.object({
    /** manage-others-time-tracking: people with a time entry running now. */
    onTheClock: z.number().int().nonnegative().nullable(),
    /** view-customers: customers added in the last 7 days. */
    newCustomersThisWeek: z.number().int().nonnegative().nullable(),
    customers: z.number().int().nonnegative().nullable(),
  }),
});
export type OrgHome = z.infer<typeof orgHomeSchema>;

/** The steps in order; products and schedule come with their issues and are shown as such. */
export const setupSteps = [
  { key: 'branding', label: 'Brand your customer app', path: '/dashboard/organization-management' },
  { key: 'team', label: 'Invite your team', path: '/dashboard/organization-management#team-heading' },
  { key: 'customers', label: 'Add your first customers', path: '/dashboard/crm' },
] as const;
export const upcomingSetupSteps = ['Add products and memberships', 'Publish your class schedule'];
