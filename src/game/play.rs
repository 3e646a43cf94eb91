//! The order cards go onto the fireworks, and the questions that follow from it: is a card
//! playable, already played, dead, does it complete its stack, how high can a stack still go.
//!
//! A stack is described by a [`Stack`]: how many cards are on it and, where the players choose
//! which way a stack goes (Up or Down, Sudoku), the way chosen. Each way is a plan: the card
//! at each place of the stack ([`PlayOrder::card_at`]). A standard stack has one plan, counting
//! up from 1; a reversed suit counts down from the top rank. An Up or Down stack starts with a
//! 1 (then goes up), a 5 (then down) or START (then a 2 goes up and a 4 down); a Sudoku stack
//! starts at any rank no other stack started at and counts up, wrapping around. While a stack's
//! way is still open, every plan that fits the cards on it is still possible, and the questions
//! ask all of them. The state, the search, replay and positions ask a variant's [`PlayOrder`],
//! so no other code knows which way a stack goes.

use crate::game::card::{Card, MAX_RANK, MAX_SUITS, START};

/// One firework: the number of cards on it and the way it goes, in one byte (the low three
/// bits count the cards). The way is 0 while it is still open (always, in variants whose
/// stacks have one way); see [`PlayOrder`] for what the other values mean.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct Stack(u8);

impl Stack {
    /// No card played.
    pub const EMPTY: Stack = Stack(0);

    const fn new(height: u8, way: u8) -> Stack {
        Stack(way << 3 | height)
    }

    /// A stack of `height` cards in a variant whose stacks have one way.
    pub const fn of_height(height: u8) -> Stack {
        Stack(height)
    }

    /// Cards on the stack: the points it scores.
    #[inline]
    pub const fn height(self) -> u8 {
        self.0 & 7
    }

    #[inline]
    const fn way(self) -> u8 {
        self.0 >> 3
    }

    /// The whole stack in one byte (height and way), for table keys.
    #[inline]
    pub const fn bits(self) -> u8 {
        self.0
    }
}

/// The ways an Up or Down stack can go, as a [`Stack`] stores them.
mod up_or_down {
    /// Not chosen yet: the stack is empty or holds only START.
    pub const OPEN: u8 = 0;
    /// Started with a 1: 1 2 3 4 5.
    pub const UP: u8 = 1;
    /// Started with START, then a 2: START 2 3 4 5.
    pub const START_UP: u8 = 2;
    /// Started with a 5: 5 4 3 2 1.
    pub const DOWN: u8 = 3;
    /// Started with START, then a 4: START 4 3 2 1.
    pub const START_DOWN: u8 = 4;
}

/// How the stacks of a variant are played.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
enum Rule {
    /// Each stack has one way: up from 1, or down from the top rank for a reversed suit.
    Fixed,
    /// Up or Down: the first cards choose the way (see [`up_or_down`]).
    UpOrDown,
    /// Sudoku: the first card's rank is the start (the way stored is that rank), and no two
    /// stacks start at the same rank.
    Sudoku,
}

/// The plans a stack may still follow (at most one per possible start).
#[derive(Clone, Copy)]
struct Plans {
    list: [Stack; MAX_RANK],
    len: u8,
}

impl Plans {
    fn one(stack: Stack) -> Plans {
        let mut list = [Stack::EMPTY; MAX_RANK];
        list[0] = stack;
        Plans { list, len: 1 }
    }

    fn push(&mut self, stack: Stack) {
        self.list[self.len as usize] = stack;
        self.len += 1;
    }

    fn iter(&self) -> impl Iterator<Item = Stack> + '_ {
        self.list[..self.len as usize].iter().copied()
    }
}

/// Which way each stack of a variant is played, and how many cards finish one.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct PlayOrder {
    /// Bit `s` set: suit `s` is played from the top rank down to 1.
    reversed: u8,
    /// Cards in a finished stack (the highest rank).
    stack_size: u8,
    rule: Rule,
}

impl PlayOrder {
    /// Every stack counts up from 1 to `stack_size`.
    pub const fn ascending(stack_size: u8) -> PlayOrder {
        PlayOrder::with_reversed(stack_size, 0)
    }

    /// The suits whose bit is set in `reversed` count down; the others up.
    pub const fn with_reversed(stack_size: u8, reversed: u8) -> PlayOrder {
        PlayOrder {
            reversed,
            stack_size,
            rule: Rule::Fixed,
        }
    }

    /// Up or Down: each stack goes up from 1 or START, or down from 5 or START.
    pub const fn up_or_down(stack_size: u8) -> PlayOrder {
        PlayOrder {
            reversed: 0,
            stack_size,
            rule: Rule::UpOrDown,
        }
    }

    /// Sudoku: each stack starts at a rank no other stack started at and wraps around.
    pub const fn sudoku(stack_size: u8) -> PlayOrder {
        PlayOrder {
            reversed: 0,
            stack_size,
            rule: Rule::Sudoku,
        }
    }

    /// Cards in a finished stack.
    #[inline]
    pub const fn stack_size(self) -> u8 {
        self.stack_size
    }

    /// Whether the players choose which way a stack goes (Up or Down, Sudoku): then a card's
    /// place on its stack is not known before the stack is started, and the search leaves out
    /// the rules that need it (see [`crate::search`]).
    #[inline]
    pub const fn ways_chosen_in_play(self) -> bool {
        !matches!(self.rule, Rule::Fixed)
    }

    /// Whether `stack`'s way is still open (Up or Down: empty or START alone; Sudoku: empty),
    /// so that more than one plan fits it.
    #[inline]
    pub const fn is_open(self, stack: Stack) -> bool {
        self.ways_chosen_in_play() && stack.way() == 0
    }

    /// Whether suit `suit` is played from the top rank down.
    #[inline]
    pub const fn is_reversed(self, suit: u8) -> bool {
        self.reversed & (1 << suit) != 0
    }

    /// The place of `card` on its suit's stack (it goes on when the stack holds `place - 1`
    /// cards) where every stack has one way; where the players choose the way
    /// ([`PlayOrder::ways_chosen_in_play`]) the card's rank, which only orders moves.
    #[inline]
    pub const fn place(self, card: Card) -> u8 {
        match self.rule {
            Rule::Fixed => self.fixed_place(card),
            _ => card.rank(),
        }
    }

    #[inline]
    const fn fixed_place(self, card: Card) -> u8 {
        if self.is_reversed(card.suit()) {
            self.stack_size + 1 - card.rank()
        } else {
            card.rank()
        }
    }

    /// The place of `card` in `plan` (a stack whose way is chosen, or an Up or Down stack
    /// holding START), or `None` where the plan has no place for it.
    #[inline]
    fn place_in(self, plan: Stack, card: Card) -> Option<u8> {
        let n = self.stack_size;
        match self.rule {
            Rule::Fixed => Some(self.fixed_place(card)),
            Rule::UpOrDown => {
                let from_start = matches!(
                    plan.way(),
                    up_or_down::OPEN | up_or_down::START_UP | up_or_down::START_DOWN
                );
                if card.is_start() {
                    return from_start.then_some(1);
                }
                let r = card.rank();
                match plan.way() {
                    up_or_down::UP => Some(r),
                    up_or_down::START_UP => (r != 1).then_some(r),
                    up_or_down::DOWN => Some(n + 1 - r),
                    up_or_down::START_DOWN => (r != n).then_some(n + 1 - r),
                    _ => None,
                }
            }
            Rule::Sudoku => {
                let start = plan.way();
                (start != 0).then(|| (card.rank() + n - start) % n + 1)
            }
        }
    }

    /// The card that goes on stack `suit` at `place` (1-based) when it follows `plan`: a stack
    /// whose way is chosen, or one whose way is open but whose cards up to `place` are
    /// the same in every plan.
    ///
    /// Each question below answers the one-way orders inline and hands the others to an
    /// out-of-line function, so that the search's hot loop stays as small as it was before
    /// the players could choose a stack's way.
    #[inline(always)]
    pub const fn card_at(self, suit: u8, plan: Stack, place: u8) -> Card {
        match self.rule {
            Rule::Fixed => {
                if self.is_reversed(suit) {
                    Card::new(suit, self.stack_size + 1 - place)
                } else {
                    Card::new(suit, place)
                }
            }
            _ => self.chosen_card_at(suit, plan, place),
        }
    }

    /// [`PlayOrder::card_at`] in Up or Down and Sudoku.
    const fn chosen_card_at(self, suit: u8, plan: Stack, place: u8) -> Card {
        let n = self.stack_size;
        match self.rule {
            Rule::UpOrDown => match plan.way() {
                up_or_down::OPEN => Card::start(suit),
                _ if place == 1
                    && matches!(plan.way(), up_or_down::START_UP | up_or_down::START_DOWN) =>
                {
                    Card::start(suit)
                }
                up_or_down::UP | up_or_down::START_UP => Card::new(suit, place),
                _ => Card::new(suit, n + 1 - place),
            },
            _ => Card::new(suit, (plan.way() + place - 2) % n + 1),
        }
    }

    /// The plans `stack` may still follow: itself once its way is chosen; while it is open,
    /// every way its cards fit (Sudoku: every start rank, whether or not another stack took
    /// it; see [`PlayOrder::can_play`]).
    fn plans(self, stack: Stack) -> Plans {
        if stack.way() != 0 || matches!(self.rule, Rule::Fixed) {
            return Plans::one(stack);
        }
        let h = stack.height();
        let mut plans = Plans {
            list: [Stack::EMPTY; MAX_RANK],
            len: 0,
        };
        match self.rule {
            Rule::UpOrDown => {
                let ways: &[u8] = if h == 0 {
                    &[
                        up_or_down::UP,
                        up_or_down::DOWN,
                        up_or_down::START_UP,
                        up_or_down::START_DOWN,
                    ]
                } else {
                    &[up_or_down::START_UP, up_or_down::START_DOWN]
                };
                for &way in ways {
                    plans.push(Stack::new(h, way));
                }
            }
            _ => {
                for start in 1..=self.stack_size {
                    plans.push(Stack::new(h, start));
                }
            }
        }
        plans
    }

    /// Whether `card` can be played on `stack` (its suit's): it takes the next place of some
    /// plan of the stack. For Sudoku, see also [`PlayOrder::can_play`].
    #[inline(always)]
    pub fn is_playable(self, stack: Stack, card: Card) -> bool {
        match self.rule {
            Rule::Fixed => self.fixed_place(card) == stack.height() + 1,
            _ => self.chosen_is_playable(stack, card),
        }
    }

    #[inline(never)]
    fn chosen_is_playable(self, stack: Stack, card: Card) -> bool {
        let next = stack.height() + 1;
        self.plans(stack)
            .iter()
            .any(|p| self.place_in(p, card) == Some(next))
    }

    /// Whether `card` can be played now, given every stack (`stacks`, indexed by suit): as
    /// [`PlayOrder::is_playable`], and in Sudoku a card starting a stack must not have the rank
    /// another stack started at.
    #[inline(always)]
    pub fn can_play(self, stacks: &[Stack], card: Card) -> bool {
        let stack = stacks[card.suit() as usize];
        self.is_playable(stack, card)
            && !(matches!(self.rule, Rule::Sudoku)
                && stack.height() == 0
                && stacks.iter().any(|s| s.way() == card.rank()))
    }

    /// The stack after `card` is played on it (which must be playable): one card higher, and
    /// with its way chosen once only one plan fits the cards on it.
    #[inline(always)]
    pub fn after_play(self, stack: Stack, card: Card) -> Stack {
        match self.rule {
            Rule::Fixed => Stack::of_height(stack.height() + 1),
            _ => self.chosen_after_play(stack, card),
        }
    }

    #[inline(never)]
    fn chosen_after_play(self, stack: Stack, card: Card) -> Stack {
        let next = stack.height() + 1;
        let plans = self.plans(stack);
        let mut fits = plans
            .iter()
            .filter(|&p| self.place_in(p, card) == Some(next));
        match (fits.next(), fits.next()) {
            (Some(p), None) => Stack::new(next, p.way()),
            _ => Stack::new(next, 0),
        }
    }

    /// Whether `card` is already on `stack` (a copy of it counts as played).
    #[inline(always)]
    pub fn is_played(self, stack: Stack, card: Card) -> bool {
        match self.rule {
            Rule::Fixed => self.fixed_place(card) <= stack.height(),
            _ => self.chosen_is_played(stack, card),
        }
    }

    #[inline(never)]
    fn chosen_is_played(self, stack: Stack, card: Card) -> bool {
        let h = stack.height();
        // Every plan of a stack agrees on the cards already on it.
        h > 0
            && self
                .place_in(self.plans(stack).list[0], card)
                .is_some_and(|q| q <= h)
    }

    /// Whether the next card played on `stack` finishes it (and gives back a token).
    #[inline]
    pub const fn completes(self, stack: Stack) -> bool {
        stack.height() + 1 == self.stack_size
    }

    /// Whether `card` can never be played on `stack`: it is already played, or in every plan
    /// of the stack it has no place above the stack, or a card it needs before it has no copy
    /// left (`copy_left`).
    #[inline(always)]
    pub fn is_dead(self, stack: Stack, card: Card, copy_left: impl Fn(Card) -> bool) -> bool {
        if !matches!(self.rule, Rule::Fixed) {
            return self.chosen_is_dead(stack, card, &copy_left);
        }
        let h = stack.height();
        let q = self.fixed_place(card);
        if q <= h {
            return true;
        }
        let mut p = h + 1;
        while p < q {
            if !copy_left(self.card_at(card.suit(), stack, p)) {
                return true;
            }
            p += 1;
        }
        false
    }

    #[inline(never)]
    fn chosen_is_dead(self, stack: Stack, card: Card, copy_left: &dyn Fn(Card) -> bool) -> bool {
        let h = stack.height();
        let s = card.suit();
        !self.plans(stack).iter().any(|plan| {
            self.place_in(plan, card)
                .is_some_and(|q| q > h && (h + 1..q).all(|p| copy_left(self.card_at(s, plan, p))))
        })
    }

    /// The height stack `suit` can still reach from `stack`: in the best of its plans, up to
    /// the first place whose card has no copy left (`copy_left`).
    #[inline(always)]
    pub fn max_reachable(self, suit: u8, stack: Stack, copy_left: impl Fn(Card) -> bool) -> u8 {
        if !matches!(self.rule, Rule::Fixed) {
            return self.chosen_max_reachable(suit, stack, &copy_left);
        }
        self.reach_in(suit, stack, stack, &copy_left)
    }

    /// How high `stack` gets following `plan`: up to the first place whose card has no copy
    /// left.
    #[inline(always)]
    fn reach_in(self, suit: u8, stack: Stack, plan: Stack, copy_left: impl Fn(Card) -> bool) -> u8 {
        let mut p = stack.height() + 1;
        while p <= self.stack_size {
            if !copy_left(self.card_at(suit, plan, p)) {
                return p - 1;
            }
            p += 1;
        }
        self.stack_size
    }

    #[inline(never)]
    fn chosen_max_reachable(self, suit: u8, stack: Stack, copy_left: &dyn Fn(Card) -> bool) -> u8 {
        self.plans(stack)
            .iter()
            .map(|plan| self.reach_in(suit, stack, plan, copy_left))
            .max()
            .unwrap_or(stack.height())
    }

    /// The most the stacks `stacks` (indexed by suit) can still score together: each up to
    /// its [`PlayOrder::max_reachable`]; in Sudoku, the open stacks take distinct start ranks
    /// that no started stack has, in the best assignment.
    pub fn max_score(self, stacks: &[Stack], copy_left: impl Fn(Card) -> bool) -> u8 {
        let each = |s: usize, stack: Stack| self.max_reachable(s as u8, stack, &copy_left);
        if !matches!(self.rule, Rule::Sudoku) {
            return stacks.iter().enumerate().map(|(s, &st)| each(s, st)).sum();
        }
        let mut total = 0;
        let mut used = 0u8;
        // For each open stack, the height it reaches from each start rank.
        let mut open = [[0u8; MAX_RANK + 1]; MAX_SUITS];
        let mut n_open = 0;
        for (s, &stack) in stacks.iter().enumerate() {
            if stack.way() != 0 {
                used |= 1 << stack.way();
                total += each(s, stack);
            } else {
                for start in 1..=self.stack_size {
                    open[n_open][start as usize] = each(s, Stack::new(0, start));
                }
                n_open += 1;
            }
        }
        total + best_assignment(&open[..n_open], used, self.stack_size)
    }

    /// The cards on `stack` of suit `suit`, first played first.
    pub fn cards_on(self, suit: u8, stack: Stack) -> impl Iterator<Item = Card> {
        let plan = self.plans(stack).list[0];
        (1..=stack.height()).map(move |p| self.card_at(suit, plan, p))
    }

    /// The stack of suit `suit` that playing `cards` in this order makes, if each fits (for
    /// position files, which may write a stack as its cards).
    pub fn stack_of(self, suit: u8, cards: &[Card]) -> Option<Stack> {
        cards.iter().try_fold(Stack::EMPTY, |stack, &c| {
            (c.suit() == suit && stack.height() < self.stack_size && self.is_playable(stack, c))
                .then(|| self.after_play(stack, c))
        })
    }
}

/// The best total of `reach[i][start]` choosing a distinct start rank (not in `used`) for each
/// open stack `i`, or none (it then stays empty).
fn best_assignment(reach: &[[u8; MAX_RANK + 1]], used: u8, size: u8) -> u8 {
    let Some((first, rest)) = reach.split_first() else {
        return 0;
    };
    let mut best = best_assignment(rest, used, size);
    for start in 1..=size {
        if used & (1 << start) == 0 && first[start as usize] > 0 {
            best = best.max(first[start as usize] + best_assignment(rest, used | 1 << start, size));
        }
    }
    best
}

/// [`START`] is the rank the START card carries; it has no place of its own in a fixed order.
const _: () = assert!(START as usize > MAX_RANK);

#[cfg(test)]
mod tests {
    use super::*;

    const H: fn(u8) -> Stack = Stack::of_height;

    #[test]
    fn standard_order_counts_up() {
        let o = PlayOrder::ascending(5);
        let r3 = Card::new(0, 3);
        assert!(o.is_playable(H(2), r3) && !o.is_playable(H(1), r3) && !o.is_playable(H(3), r3));
        assert!(o.is_played(H(3), r3) && !o.is_played(H(2), r3));
        assert!(o.completes(H(4)) && !o.completes(H(2)));
        assert!(o.is_dead(H(0), r3, |c| c.rank() != 2));
        assert!(!o.is_dead(H(2), r3, |c| c.rank() != 2));
        assert_eq!(o.max_reachable(0, H(0), |c| c.rank() != 4), 3);
        assert_eq!(o.max_reachable(0, H(4), |_| true), 5);
        assert_eq!(o.after_play(H(2), r3), H(3));
    }

    #[test]
    fn a_reversed_suit_counts_down() {
        // Suit 1 reversed, suit 0 not.
        let o = PlayOrder::with_reversed(5, 0b10);
        let (r1, y5, y1, y4) = (
            Card::new(0, 1),
            Card::new(1, 5),
            Card::new(1, 1),
            Card::new(1, 4),
        );
        assert!(o.is_playable(H(0), r1) && o.is_playable(H(0), y5) && !o.is_playable(H(0), y1));
        assert!(o.is_playable(H(1), y4) && o.is_played(H(1), y5) && !o.is_played(H(1), y4));
        assert_eq!(o.card_at(1, H(0), 1), y5);
        // With every y5 gone, nothing of the suit can be played.
        assert!(o.is_dead(H(0), y4, |c| c != y5));
        assert_eq!(o.max_reachable(1, H(0), |c| c != Card::new(1, 3)), 2);
    }

    /// Plays `ranks` (START as [`START`]) on an empty stack of suit 0, checking each fits.
    fn played(o: PlayOrder, ranks: &[u8]) -> Stack {
        ranks.iter().fold(Stack::EMPTY, |stack, &r| {
            let c = Card::new(0, r);
            assert!(o.is_playable(stack, c), "{r} on {stack:?}");
            o.after_play(stack, c)
        })
    }

    #[test]
    fn up_or_down_stacks_take_their_way_from_the_first_cards() {
        let o = PlayOrder::up_or_down(5);
        let c = |r| Card::new(0, r);
        let s = Card::start(0);
        // An empty stack takes 1, 5 or START.
        for (r, ok) in [(1, true), (2, false), (4, false), (5, true), (START, true)] {
            assert_eq!(o.is_playable(Stack::EMPTY, c(r)), ok, "{r}");
        }
        // The four ways, each five cards long.
        for ranks in [
            [1, 2, 3, 4, 5],
            [5, 4, 3, 2, 1],
            [START, 2, 3, 4, 5],
            [START, 4, 3, 2, 1],
        ] {
            let stack = played(o, &ranks[..4]);
            assert!(o.completes(stack));
            assert_eq!(played(o, &ranks).height(), 5);
            for (i, &r) in ranks.iter().enumerate() {
                assert_eq!(o.is_played(stack, c(r)), i < 4, "{ranks:?} {r}");
            }
        }
        // After START: a 2 or a 4, not a 1, 3 or 5.
        let started = played(o, &[START]);
        assert!(o.is_played(started, s) && o.is_dead(started, s, |_| true));
        for (r, ok) in [(1, false), (2, true), (3, false), (4, true), (5, false)] {
            assert_eq!(o.is_playable(started, c(r)), ok, "{r}");
        }
        // Going up from START, the 1 is dead; going up from 1, START is.
        let up = played(o, &[START, 2]);
        assert!(o.is_dead(up, c(1), |_| true) && !o.is_dead(up, c(5), |_| true));
        assert!(o.is_dead(played(o, &[1]), s, |_| true));
        // With no 1 left, an empty stack still reaches 5 cards (START 2 3 4 5); a 1 (were one
        // held) could still start it, as nothing comes before it.
        let no_one = |x: Card| x != c(1);
        assert_eq!(o.max_reachable(0, Stack::EMPTY, no_one), 5);
        assert!(!o.is_dead(Stack::EMPTY, c(1), no_one));
        // With the 1 and START gone, going up is closed, going down from 5 ends before the 1.
        let no_one_no_start = |x: Card| x != c(1) && x != s;
        assert_eq!(o.max_reachable(0, Stack::EMPTY, no_one_no_start), 4);
        // Down from 5 with every 3 gone: 5 4, and the 2 and 1 are dead.
        let down = played(o, &[5]);
        let no_three = |x: Card| x != c(3);
        assert_eq!(o.max_reachable(0, down, no_three), 2);
        assert!(o.is_dead(down, c(2), no_three) && !o.is_dead(down, c(4), no_three));
    }

    #[test]
    fn sudoku_stacks_wrap_from_a_start_no_other_stack_took() {
        let o = PlayOrder::sudoku(5);
        let mut stacks = [Stack::EMPTY; 3];
        // Any rank starts an empty stack.
        assert!((1..=5).all(|r| o.is_playable(Stack::EMPTY, Card::new(0, r))));
        stacks[0] = played(o, &[3, 4, 5]);
        assert!(o.is_playable(stacks[0], Card::new(0, 1)));
        assert!(!o.is_playable(stacks[0], Card::new(0, 2)));
        assert!(o.completes(played(o, &[3, 4, 5, 1])));
        // Suit 1 may not start at 3 now; at 4 it may.
        assert!(!o.can_play(&stacks, Card::new(1, 3)));
        assert!(o.can_play(&stacks, Card::new(1, 4)));
        assert!(
            o.is_played(stacks[0], Card::new(0, 4)) && !o.is_played(stacks[0], Card::new(0, 1))
        );
        // With the 1s of suit 0 gone, it stops at 3 cards.
        let no_r1 = |c: Card| c != Card::new(0, 1);
        assert_eq!(o.max_reachable(0, stacks[0], no_r1), 3);
        assert!(o.is_dead(stacks[0], Card::new(0, 2), no_r1));
        // Two open stacks whose best start is the same rank: only one may take it.
        let o3 = PlayOrder::sudoku(3);
        // Suits 0 and 1 lack their 2s: from 3 they reach 3 cards (3 1 2: no, the 2 is last);
        // from 3 a stack plays 3 1 and stops (2 gone): 2 cards, from 1: 1 and stops: 1 card.
        let no_twos = |c: Card| c.rank() != 2;
        let open = [Stack::EMPTY; 2];
        assert_eq!(o3.max_reachable(0, Stack::EMPTY, no_twos), 2);
        // Both want to start at 3; one does (2 cards), the other starts at 1 (1 card).
        assert_eq!(o3.max_score(&open, no_twos), 3);
    }
}
