export type TutorialCategory = 'beginner' | 'advanced' | 'integration' | 'analytics';

export type Tutorial = {
  id: string;
  title: string;
  description: string;
  category: TutorialCategory;
  duration: string;
  thumbnail: string;
  videoId: string;
  featured?: boolean;
  isNew?: boolean;
};

export const CATEGORIES: { value: TutorialCategory; label: string }[] = [
  { value: 'beginner', label: 'Beginner Guides' },
  { value: 'advanced', label: 'Advanced Techniques' },
  { value: 'integration', label: 'Marketplace Integration' },
  { value: 'analytics', label: 'Analytics & Reporting' },
];

/** Fixed content (spec section 2). Thumbnails are local; nothing is fetched. */
export const TUTORIALS: Tutorial[] = [
  { id: 't1', title: 'Getting Started with the Desktop Software', description: 'Install the software, add your API key and create your first listing.', category: 'beginner', duration: '8:24', thumbnail: '/logo.svg', videoId: 'getting-started', featured: true },
  { id: 't2', title: 'Understanding Credits', description: 'How monthly and purchased credits are spent and when they expire.', category: 'beginner', duration: '5:10', thumbnail: '/logo.svg', videoId: 'credits' },
  { id: 't3', title: 'Your First Bulk Upload', description: 'Move dozens of Amazon products to eBay in one run.', category: 'beginner', duration: '11:02', thumbnail: '/logo.svg', videoId: 'bulk-upload', isNew: true },
  { id: 't4', title: 'Pricing Rules That Protect Your Margin', description: 'Set markups, minimum profits and rounding rules.', category: 'advanced', duration: '14:45', thumbnail: '/logo.svg', videoId: 'pricing-rules', featured: true },
  { id: 't5', title: 'Avoiding VeRO Takedowns', description: 'Use VeRO checks to skip protected brands before listing.', category: 'advanced', duration: '9:30', thumbnail: '/logo.svg', videoId: 'vero' },
  { id: 't6', title: 'Connecting Your eBay Store', description: 'Authorise the software with your eBay seller account.', category: 'integration', duration: '6:15', thumbnail: '/logo.svg', videoId: 'ebay-connect' },
  { id: 't7', title: 'Inventory Sync Settings', description: 'Keep stock and prices in step, from hourly to daily.', category: 'integration', duration: '7:48', thumbnail: '/logo.svg', videoId: 'inventory-sync', isNew: true },
  { id: 't8', title: 'Reading Your Profit Analytics', description: 'Find your best sellers and the listings that lose money.', category: 'analytics', duration: '10:05', thumbnail: '/logo.svg', videoId: 'profit-analytics', featured: true },
  { id: 't9', title: 'Exporting Reports', description: 'Export sales and usage reports for your accountant.', category: 'analytics', duration: '4:40', thumbnail: '/logo.svg', videoId: 'reports' },
];
