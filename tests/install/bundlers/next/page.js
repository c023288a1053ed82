'use client';
// A client component: the check runs in the browser only, after the page
// has hydrated.
import { useEffect } from 'react';

export default function Page() {
  useEffect(() => {
    import('./trident-check.js');
  }, []);
  return <p>Trident in a Next.js app</p>;
}
