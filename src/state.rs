//! One position of a game and the rules that move it forward.
//!
//! [`State`] is small and `Copy`: the search makes a child by copying, never by undoing. The
//! draw pile is shared and immutable ([`Deal`]); a state only counts how many cards were drawn.

use smallvec::SmallVec;

use crate::error::Error;
use crate::game::card::{Card, KINDS, MAX_SUITS, RANKED_KINDS};
use crate::game::play::Stack;
use crate::game::rules::{Rules, MAX_HAND, MAX_PLAYERS};

/// One turn's action. Slots index the mover's hand, oldest card first.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Action {
    Play(u8),
    Discard(u8),
    /// Any clue: with every card known, which clue it is does not change the game.
    Clue,
    /// A colour clue, where the type matters (Alternating Clues: the next clue must be a rank).
    ColourClue,
    /// A rank clue, where the type matters (Alternating Clues).
    RankClue,
    /// Play the last card of the pile blind (the deck-plays option).
    DeckPlay,
}

impl Action {
    /// Whether the action is a clue of any kind.
    #[inline]
    pub const fn is_clue(self) -> bool {
        matches!(self, Action::Clue | Action::ColourClue | Action::RankClue)
    }

    /// The type of a typed clue: `Some(true)` for a colour clue, `Some(false)` for a rank clue,
    /// `None` for any other action (an untyped [`Action::Clue`] included).
    #[inline]
    pub const fn clue_type(self) -> Option<bool> {
        match self {
            Action::ColourClue => Some(true),
            Action::RankClue => Some(false),
            _ => None,
        }
    }
}

/// Whether the game goes on and, if not, how it ended.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Status {
    Playing,
    /// The final round is over, every firework is complete, or (outside endless mode) the player
    /// to move had no legal action: the score is the fireworks' total.
    Finished,
    /// The last strike was taken or, in endless mode, the game can no longer be won: score 0.
    Lost,
}

/// Why a game ended, in words for people.
pub fn end_reason(rules: &Rules, state: &State) -> &'static str {
    match state.status {
        Status::Playing => "the game is still going on",
        Status::Lost if state.strikes >= rules.max_strikes => "the last strike was taken",
        Status::Lost if state.final_turns == NO_LEGAL_ACTION => {
            "the player to move had no legal action"
        }
        Status::Lost => "a card still needed was lost for good",
        Status::Finished if state.score(rules) == rules.perfect_score() => {
            "every firework is complete"
        }
        Status::Finished if state.final_turns == NO_LEGAL_ACTION => {
            "the player to move had no legal action"
        }
        Status::Finished => "the final round after the last draw is over",
    }
}

/// `final_turns` before the last card is drawn.
pub const NOT_FINAL: u8 = u8::MAX;
/// `final_turns` marker for a game that ended because the mover had no legal action.
const NO_LEGAL_ACTION: u8 = u8::MAX - 1;

/// The cards and rules fixed for a whole game: the rules and the draw pile, top first.
#[derive(Clone, Debug)]
pub struct Deal {
    pub rules: Rules,
    pub pile: Vec<Card>,
    /// `next[i][kind]`: the first pile index `>= i` holding a card of that kind, or `u8::MAX`.
    next: Vec<[u8; KINDS]>,
    /// `last[kind]`: the last pile index holding a card of that kind, or `u8::MAX`.
    last: [u8; KINDS],
}

impl Deal {
    /// A deal from a draw pile (top first).
    pub fn with_pile(rules: Rules, pile: Vec<Card>) -> Deal {
        let mut next = vec![[u8::MAX; KINDS]; pile.len() + 1];
        for i in (0..pile.len()).rev() {
            next[i] = next[i + 1];
            next[i][pile[i].kind()] = i as u8;
        }
        let mut last = [u8::MAX; KINDS];
        for (i, c) in pile.iter().enumerate() {
            last[c.kind()] = i as u8;
        }
        Deal {
            rules,
            pile,
            next,
            last,
        }
    }

    /// Copies of a card kind in the deck (the variant's table).
    #[inline]
    pub fn copies(&self, kind: usize) -> u8 {
        self.rules.variant.copies_by_kind()[kind]
    }

    /// Deals a full deck (top first) in blocks as hanab.live does: seat 0 takes the first
    /// `hand_size` cards, seat 1 the next, and the rest is the pile.
    ///
    /// The deck must be exactly the variant's cards in some order.
    pub fn from_deck(rules: Rules, deck: &[Card]) -> Result<(Deal, State), Error> {
        check_deck(&rules, deck)?;
        let h = rules.hand_size as usize;
        let n = rules.players as usize;
        let hands: Vec<Vec<Card>> = (0..n).map(|p| deck[p * h..(p + 1) * h].to_vec()).collect();
        let deal = Deal::with_pile(rules, deck[n * h..].to_vec());
        let mut state = State::empty();
        for (p, hand) in hands.iter().enumerate() {
            for &c in hand {
                state.push(p, c);
            }
        }
        state.clues = deal.rules.max_clues;
        if deal.pile.is_empty() && !deal.rules.endless {
            state.final_turns = deal.rules.players;
        }
        Ok((deal, state))
    }

    /// First pile index at or after `from` that holds a card of `kind`.
    #[inline]
    pub fn next_copy(&self, from: u8, kind: usize) -> Option<u8> {
        let i = self.next[from as usize][kind];
        (i != u8::MAX).then_some(i)
    }

    /// The last pile index at or after `from` that holds a card of `kind`.
    #[inline]
    pub fn last_copy(&self, from: u8, kind: usize) -> Option<u8> {
        let i = self.last[kind];
        (i != u8::MAX && i >= from).then_some(i)
    }

    /// Cards left in the pile of `state`.
    #[inline]
    pub fn pile_left(&self, state: &State) -> u8 {
        self.pile.len() as u8 - state.drawn
    }
}

/// Checks that `deck` holds exactly the variant's cards.
pub fn check_deck(rules: &Rules, deck: &[Card]) -> Result<(), Error> {
    let v = &rules.variant;
    if deck.len() != v.deck_size() {
        return Err(Error::Deck(format!(
            "{} has {} cards but the deck given has {}",
            v.name,
            v.deck_size(),
            deck.len()
        )));
    }
    let mut count = [0u8; KINDS];
    for &c in deck {
        if c.suit() as usize >= v.suits.len() || v.copies_by_kind()[c.kind()] == 0 {
            return Err(Error::Deck(format!("{:?} is not a card of {}", c, v.name)));
        }
        count[c.kind()] += 1;
        if count[c.kind()] > v.copies(c.suit(), c.rank()) {
            return Err(Error::Deck(format!(
                "too many copies of {}: {} has {}",
                v.card_name(c),
                v.name,
                v.copies(c.suit(), c.rank())
            )));
        }
    }
    Ok(())
}

/// A position: hands, fireworks, tokens, strikes, how far the pile is drawn, whose turn.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct State {
    hands: [[Card; MAX_HAND]; MAX_PLAYERS],
    hand_len: [u8; MAX_PLAYERS],
    /// Each firework (its height, and the way it goes where the players choose it).
    pub stacks: [Stack; MAX_SUITS],
    /// Copies of each card kind discarded or misplayed, two bits per kind; the START cards'
    /// (kinds from [`RANKED_KINDS`] on) in `lost_start`, so that the common kinds stay in one
    /// word.
    lost: u64,
    lost_start: u16,
    /// Clue tokens available, in the variant's units ([`crate::game::tokens::TokenRules`]).
    pub clues: u8,
    /// The type of the last clue given (`Some(true)` colour, `Some(false)` rank, `None` before
    /// any); kept only in Alternating Clues, where it decides which clue type is legal next.
    pub last_clue: Option<bool>,
    pub strikes: u8,
    /// Cards taken from the pile so far.
    pub drawn: u8,
    /// Seat to move.
    pub turn: u8,
    /// Turns left once the pile is empty ([`NOT_FINAL`] before that).
    pub final_turns: u8,
    pub status: Status,
    /// Turns taken so far.
    pub turns: u16,
}

impl State {
    /// No cards anywhere, no tokens; the building block of the constructors.
    pub fn empty() -> State {
        State {
            hands: [[Card::NONE; MAX_HAND]; MAX_PLAYERS],
            hand_len: [0; MAX_PLAYERS],
            stacks: [Stack::EMPTY; MAX_SUITS],
            lost: 0,
            lost_start: 0,
            clues: 0,
            last_clue: None,
            strikes: 0,
            drawn: 0,
            turn: 0,
            final_turns: NOT_FINAL,
            status: Status::Playing,
            turns: 0,
        }
    }

    /// Adds a card at the end of a hand (the newest slot). Used to set positions up.
    pub fn push(&mut self, player: usize, card: Card) {
        let n = self.hand_len[player] as usize;
        assert!(n < MAX_HAND, "hand overflow");
        self.hands[player][n] = card;
        self.hand_len[player] += 1;
    }

    /// Records `count` more copies of `card` as lost (discarded or misplayed). For positions.
    pub fn add_lost(&mut self, card: Card, count: u8) {
        let total = (self.lost(card) + count) & 3;
        let k = card.kind();
        if k < RANKED_KINDS {
            let shift = 2 * k;
            self.lost = (self.lost & !(3 << shift)) | (u64::from(total) << shift);
        } else {
            let shift = 2 * (k - RANKED_KINDS);
            self.lost_start = (self.lost_start & !(3 << shift)) | (u16::from(total) << shift);
        }
    }

    /// The same position with every hand sorted and the turn counter cleared: hand order and
    /// the turn count never change what can happen next, so tests use this as a memo key.
    pub fn normalized(&self) -> State {
        let mut s = *self;
        for p in 0..MAX_PLAYERS {
            let n = s.hand_len[p] as usize;
            s.hands[p][..n].sort_unstable();
        }
        s.turns = 0;
        s
    }

    /// The cards in `player`'s hand, oldest first.
    #[inline]
    pub fn hand(&self, player: usize) -> &[Card] {
        &self.hands[player][..self.hand_len[player] as usize]
    }

    /// Copies of `card`'s kind discarded or misplayed.
    #[inline]
    pub fn lost(&self, card: Card) -> u8 {
        let k = card.kind();
        if k < RANKED_KINDS {
            ((self.lost >> (2 * k)) & 3) as u8
        } else {
            ((self.lost_start >> (2 * (k - RANKED_KINDS))) & 3) as u8
        }
    }

    /// Copies of `card` not yet played nor lost: in hands or still in the pile.
    #[inline]
    pub fn remaining(&self, rules: &Rules, card: Card) -> u8 {
        let played = rules
            .variant
            .play_order()
            .is_played(self.stacks[card.suit() as usize], card) as u8;
        rules.variant.copies(card.suit(), card.rank()) - self.lost(card) - played
    }

    #[inline]
    pub fn is_playable(&self, rules: &Rules, card: Card) -> bool {
        rules.variant.play_order().can_play(&self.stacks, card)
    }

    /// A card that can never be played: already played, or a lower card of its suit is gone.
    #[inline]
    pub fn is_trash(&self, rules: &Rules, card: Card) -> bool {
        let order = rules.variant.play_order();
        order.is_dead(self.stacks[card.suit() as usize], card, |c| {
            self.remaining(rules, c) > 0
        })
    }

    /// The current score: the fireworks' total, or 0 once the game is lost.
    pub fn score(&self, rules: &Rules) -> u8 {
        if self.status == Status::Lost {
            return 0;
        }
        self.stacks[..rules.variant.suits.len()]
            .iter()
            .map(|s| s.height())
            .sum()
    }

    /// Height of every firework, in suit order (0 past the variant's suits).
    pub fn heights(&self) -> [u8; MAX_SUITS] {
        self.stacks.map(|s| s.height())
    }

    /// Height of firework `suit`.
    #[inline]
    pub fn height(&self, suit: usize) -> u8 {
        self.stacks[suit].height()
    }

    pub fn is_over(&self) -> bool {
        self.status != Status::Playing
    }

    /// Whether a clue could be given by the player to move: a token, and a clue that touches
    /// a card of another player (any clue at all with empty clues or a blind clue type). In
    /// Alternating Clues, a clue of the type allowed next ([`State::can_clue_type`]).
    #[inline]
    pub fn can_clue(&self, rules: &Rules) -> bool {
        if self.clues < rules.tokens().clue_cost {
            return false;
        }
        let v = &rules.variant;
        if rules.tokens().alternating {
            return self.can_clue_type(rules, true) || self.can_clue_type(rules, false);
        }
        if rules.clue_may_touch_nothing() {
            return true;
        }
        let others = (0..rules.players as usize).filter(|&p| p != self.turn as usize);
        if v.every_card_clueable() {
            return others.into_iter().any(|p| self.hand_len[p] > 0);
        }
        others
            .into_iter()
            .any(|p| self.hand(p).iter().any(|&c| v.touchable(c)))
    }

    /// Whether a clue of one type (`colour`, else rank) could be given by the player to move:
    /// a token, the type allowed after the last clue (Alternating Clues), and a clue of that
    /// type that touches a card of another player (or empty clues, or a blind type).
    pub fn can_clue_type(&self, rules: &Rules, colour: bool) -> bool {
        if self.clues < rules.tokens().clue_cost
            || (rules.tokens().alternating && self.last_clue == Some(colour))
        {
            return false;
        }
        (0..rules.players as usize)
            .filter(|&p| p != self.turn as usize)
            .any(|p| {
                // An empty hand takes only a clue that may touch nothing.
                let held = self.hand(p).iter().fold(0, |set, c| set | c.kind_bit());
                rules
                    .variant
                    .type_can_touch(colour, held, rules.empty_clues)
            })
    }

    /// The clue moves of the player to move: [`Action::Clue`] if a clue can be given, or in
    /// Alternating Clues, one move for each type that can be given.
    #[inline]
    pub fn clue_actions(&self, rules: &Rules) -> SmallVec<[Action; 2]> {
        let mut out = SmallVec::new();
        if rules.tokens().alternating {
            for (colour, action) in [(true, Action::ColourClue), (false, Action::RankClue)] {
                if self.can_clue_type(rules, colour) {
                    out.push(action);
                }
            }
        } else if self.can_clue(rules) {
            out.push(Action::Clue);
        }
        out
    }

    /// Whether the player to move may discard: below the maximum of tokens, or always where
    /// the variant allows discarding at the maximum (Orange).
    #[inline]
    pub fn can_discard(&self, rules: &Rules) -> bool {
        self.clues < rules.max_clues || rules.tokens().discard_at_max
    }

    #[inline]
    pub fn can_deck_play(&self, deal: &Deal) -> bool {
        deal.rules.deck_plays && deal.pile_left(self) == 1
    }

    /// Every legal action of the player to move, one per hand slot (no merging).
    pub fn legal_actions(&self, deal: &Deal) -> SmallVec<[Action; 24]> {
        let mut out = SmallVec::new();
        if self.is_over() {
            return out;
        }
        let n = self.hand_len[self.turn as usize];
        for i in 0..n {
            out.push(Action::Play(i));
        }
        if self.can_discard(&deal.rules) {
            for i in 0..n {
                out.push(Action::Discard(i));
            }
        }
        out.extend(self.clue_actions(&deal.rules));
        if self.can_deck_play(deal) {
            out.push(Action::DeckPlay);
        }
        out
    }

    /// Applies `action` after checking that it is legal; the error says why it is not.
    pub fn apply(&self, deal: &Deal, action: Action) -> Result<State, String> {
        let rules = &deal.rules;
        if self.is_over() {
            return Err("the game is already over".into());
        }
        let n = self.hand_len[self.turn as usize];
        match action {
            Action::Play(i) | Action::Discard(i) if i >= n => {
                return Err(format!("the player to move has {n} cards, no slot {i}"))
            }
            Action::Discard(_) if !self.can_discard(rules) => {
                return Err(format!(
                    "cannot discard with all {} clue tokens available",
                    rules.max_tokens()
                ))
            }
            a if a.is_clue() && self.clues < rules.tokens().clue_cost => {
                return Err(if rules.tokens().scale == 1 {
                    "no clue token is available".into()
                } else {
                    format!(
                        "a clue costs a whole token and only {} is available",
                        rules.tokens().text(self.clues)
                    )
                })
            }
            Action::ColourClue | Action::RankClue if !rules.tokens().alternating => {
                return Err("clue types matter only in Alternating Clues".into())
            }
            Action::Clue if rules.tokens().alternating => {
                return Err("in Alternating Clues a clue must say its type".into())
            }
            Action::ColourClue | Action::RankClue
                if !self.can_clue_type(rules, action == Action::ColourClue) =>
            {
                let colour = action == Action::ColourClue;
                let kind = if colour { "colour" } else { "rank" };
                return Err(if self.last_clue == Some(colour) {
                    format!("the last clue was a {kind} clue, and clue types must alternate")
                } else {
                    format!("no {kind} clue touches a card of another player")
                });
            }
            Action::Clue if !self.can_clue(rules) => {
                return Err(if rules.variant.every_card_clueable() {
                    "no other player holds a card to clue (empty clues are off)".into()
                } else {
                    "no clue touches a card of another player (empty clues are off)".into()
                })
            }
            Action::DeckPlay if !self.can_deck_play(deal) => {
                return Err(
                    "a deck play needs the deck-plays option and exactly one card in the pile"
                        .into(),
                )
            }
            _ => {}
        }
        Ok(self.apply_unchecked(deal, action))
    }

    /// Applies `action` without checking it.
    ///
    /// Contract: `action` is in [`State::legal_actions`] of this state; otherwise the result is
    /// unspecified (but memory-safe). This is the search's hot path.
    #[inline]
    pub fn apply_unchecked(&self, deal: &Deal, action: Action) -> State {
        let rules = &deal.rules;
        let mut s = *self;
        let p = s.turn as usize;
        let was_final = s.final_turns != NOT_FINAL;
        let had_pile = (s.drawn as usize) < deal.pile.len();
        let tokens = rules.tokens();
        match action {
            Action::Clue => s.clues -= tokens.clue_cost,
            Action::ColourClue | Action::RankClue => {
                s.clues -= tokens.clue_cost;
                s.last_clue = action.clue_type();
            }
            Action::Discard(i) => {
                let card = s.take(p, i as usize);
                s.clues = (s.clues + tokens.discard_gain).min(rules.max_clues);
                s.lose(rules, card);
                s.draw(deal, p);
            }
            Action::Play(i) => {
                let card = s.take(p, i as usize);
                s.play(rules, card);
                s.draw(deal, p);
            }
            Action::DeckPlay => {
                let card = deal.pile[s.drawn as usize];
                s.drawn += 1;
                s.play(rules, card);
            }
        }
        s.turns += 1;
        if s.strikes >= rules.max_strikes {
            // The last strike scores 0 (RULES.md), even where hanab.live would already have
            // ended the game ([`State::settled`]; replay stops there).
            s.status = Status::Lost;
        }
        if s.status != Status::Playing {
            return s;
        }
        if s.stacks[..rules.variant.suits.len()]
            .iter()
            .all(|h| h.height() == rules.variant.ranks)
        {
            s.status = Status::Finished;
            return s;
        }
        if !rules.endless {
            if was_final {
                s.final_turns -= 1;
                if s.final_turns == 0 {
                    s.status = Status::Finished;
                    return s;
                }
            } else if had_pile && s.drawn as usize == deal.pile.len() {
                s.final_turns = rules.players;
            }
        }
        s.turn = (s.turn + 1) % rules.players;
        if !s.has_legal_action(deal) {
            s.status = if rules.endless {
                Status::Lost
            } else {
                Status::Finished
            };
            s.final_turns = NO_LEGAL_ACTION;
        }
        s
    }

    /// The most the fireworks can still reach: each stack up to the first card with no copy
    /// left (in its best plan; see [`crate::game::play::PlayOrder::max_score`]).
    pub fn max_reachable_score(&self, rules: &Rules) -> u8 {
        rules
            .variant
            .play_order()
            .max_score(&self.stacks[..rules.variant.suits.len()], |c| {
                self.remaining(rules, c) > 0
            })
    }

    /// Whether the score of this position can no longer change, so that hanab.live ends the
    /// game here, and why: outside endless mode, the site stops when the score equals the most
    /// still possible, and in the final round when no player still to move holds a card that
    /// can be played now.
    pub fn settled(&self, deal: &Deal) -> Option<&'static str> {
        let rules = &deal.rules;
        if rules.endless || self.status == Status::Lost {
            return None;
        }
        if self.score(rules) == self.max_reachable_score(rules) {
            return Some(
                "the score reached the most still possible (hanab.live ends the game there)",
            );
        }
        if self.final_turns != NOT_FINAL && self.final_turns != NO_LEGAL_ACTION {
            let n = rules.players;
            let playable = (0..self.final_turns)
                .map(|k| ((self.turn + k) % n) as usize)
                .any(|p| self.hand(p).iter().any(|&c| self.is_playable(rules, c)));
            if !playable {
                return Some(
                    "no player still to move in the final round holds a playable card (hanab.live ends the game there)",
                );
            }
        }
        None
    }

    /// Whether the player to move has any legal action.
    pub fn has_legal_action(&self, deal: &Deal) -> bool {
        self.hand_len[self.turn as usize] > 0
            || self.can_clue(&deal.rules)
            || self.can_deck_play(deal)
    }

    /// Removes and returns the card in `slot` of `player`'s hand; later cards move down a slot.
    #[inline]
    fn take(&mut self, player: usize, slot: usize) -> Card {
        let n = self.hand_len[player] as usize;
        let hand = &mut self.hands[player];
        let card = hand[slot];
        hand.copy_within(slot + 1..n, slot);
        hand[n - 1] = Card::NONE;
        self.hand_len[player] -= 1;
        card
    }

    #[inline]
    fn draw(&mut self, deal: &Deal, player: usize) {
        if let Some(&card) = deal.pile.get(self.drawn as usize) {
            self.drawn += 1;
            self.push(player, card);
        }
    }

    #[inline]
    fn play(&mut self, rules: &Rules, card: Card) {
        let s = card.suit() as usize;
        let order = rules.variant.play_order();
        if order.can_play(&self.stacks, card) {
            let before = self.stacks[s];
            self.stacks[s] = order.after_play(before, card);
            if order.completes(before) {
                self.clues = (self.clues + rules.tokens().stack_gain).min(rules.max_clues);
            }
            // Choosing a stack's way can make a card needed whose copies are already gone
            // (a 5 played down after the only 1 was discarded): in endless mode that loses.
            if rules.endless
                && order.is_open(before)
                && self.max_reachable_score(rules) < rules.variant.perfect_score()
            {
                self.status = Status::Lost;
            }
        } else {
            self.strikes += 1;
            self.lose(rules, card);
        }
    }

    /// Records a discarded or misplayed card; in endless mode losing the last copy of a card
    /// still needed loses the game.
    #[inline]
    fn lose(&mut self, rules: &Rules, card: Card) {
        let k = card.kind();
        if k < RANKED_KINDS {
            self.lost += 1 << (2 * k);
        } else {
            self.lost_start += 1 << (2 * (k - RANKED_KINDS));
        }
        if rules.endless {
            let order = rules.variant.play_order();
            let needed_and_gone = if order.ways_chosen_in_play() {
                // Whether a card is still needed depends on the ways the stacks can go.
                self.max_reachable_score(rules) < rules.variant.perfect_score()
            } else {
                !order.is_played(self.stacks[card.suit() as usize], card)
                    && self.remaining(rules, card) == 0
            };
            if needed_and_gone {
                self.status = Status::Lost;
            }
        }
    }
}
