import { Button } from '@mantine/core';

/** The part of a TanStack infinite query that paging needs. */
interface Pager {
  hasNextPage: boolean;
  isFetchingNextPage: boolean;
  fetchNextPage: () => Promise<unknown>;
}

/** "Load more" for a cursor-paged list (pages, media, activity): shown only while the API says more remain. */
export function LoadMore({ pages }: { pages: Pager }) {
  if (!pages.hasNextPage) return null;
  return (
    <Button variant="default" onClick={() => void pages.fetchNextPage()} loading={pages.isFetchingNextPage}>
      Load more
    </Button>
  );
}
