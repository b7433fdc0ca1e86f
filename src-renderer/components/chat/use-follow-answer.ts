import { useEffect, useLayoutEffect, useRef, type RefObject } from 'react';
import type { ChatExchange } from '../../store/slices/chat-slice';

/** How close to the end of the answer counts as "reading along" (the user has not scrolled up). */
const FOLLOW_SLACK_PX = 48;

function scrollParent(element: HTMLElement): HTMLElement | null {
  for (let node = element.parentElement; node; node = node.parentElement) {
    const { overflowY } = getComputedStyle(node);
    if (overflowY === 'auto' || overflowY === 'scroll') return node;
  }
  return null;
}

/**
 * As chat apps do: a new question is scrolled to the top of the view, and the answer streaming
 * under it is followed (its last line kept above the ask box) until the user scrolls away from it;
 * scrolling back down to it follows again. `list` holds one element per exchange, `footer` is the
 * sticky ask box that covers the bottom of the view.
 */
export function useFollowAnswer(
  exchanges: ChatExchange[],
  list: RefObject<HTMLElement | null>,
  footer: RefObject<HTMLElement | null>,
): void {
  const following = useRef(false);
  /** Where following last left the view: a view above it was scrolled up by the reader. */
  const leftAt = useRef(0);
  const seen = useRef<ChatExchange['key'] | null>(null);
  const last = exchanges.at(-1);
  const live = !!last && (last.status === 'asking' || last.status === 'streaming');

  /** How far the answer's end is below the visible area (negative: above its bottom edge). */
  const overshoot = (view: HTMLElement, answer: Element): number => {
    const bottom = footer.current?.getBoundingClientRect().top ?? view.getBoundingClientRect().bottom;
    return answer.getBoundingClientRect().bottom - (bottom - 12);
  };

  // A question just asked: bring it to the top of the view and start following its answer.
  useLayoutEffect(() => {
    if (!last || !live || seen.current === last.key) return;
    seen.current = last.key;
    const element = list.current?.lastElementChild;
    if (!(element instanceof HTMLElement)) return;
    // Optional: jsdom (the unit tests' DOM) has no layout and no scrollIntoView.
    element.scrollIntoView?.({ block: 'start' });
    following.current = true;
    leftAt.current = scrollParent(element)?.scrollTop ?? 0;
  }, [last, live, list]);

  // The answer grew: keep its end in sight while following.
  const length = last?.text.length ?? 0;
  useLayoutEffect(() => {
    const element = list.current?.lastElementChild;
    const answer = element?.querySelector('.answer');
    const view = element instanceof HTMLElement ? scrollParent(element) : null;
    if (!live || !following.current || !answer || !view) return;
    // The reader's scroll may not have been reported yet (scroll events come a frame later).
    if (view.scrollTop < leftAt.current - 1) {
      following.current = false;
      return;
    }
    const below = overshoot(view, answer);
    if (below > 0) view.scrollTop += below;
    leftAt.current = view.scrollTop;
  }, [length, live, list]);

  // The user scrolled: up and away from the answer's end stops following; back down to it resumes.
  useEffect(() => {
    const element = list.current;
    const view = element ? scrollParent(element) : null;
    if (!view || !live) return;
    const onScroll = () => {
      const answer = list.current?.lastElementChild?.querySelector('.answer');
      if (!answer) return;
      if (view.scrollTop < leftAt.current - 1) following.current = false;
      if (overshoot(view, answer) <= FOLLOW_SLACK_PX) {
        following.current = true;
        leftAt.current = view.scrollTop;
      }
    };
    view.addEventListener('scroll', onScroll, { passive: true });
    return () => view.removeEventListener('scroll', onScroll);
  }, [live, list]);
}
