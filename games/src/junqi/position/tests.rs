use super::*;

fn post(s: &str) -> Post {
    s.parse().unwrap()
}

fn mv(s: &str) -> Move {
    s.parse().unwrap()
}

fn piece(owner: u8, rank: Rank) -> Option<Piece> {
    Some(Piece {
        owner: Seat(owner),
        rank,
    })
}

fn sorted(posts: Vec<Post>) -> Vec<String> {
    let mut v: Vec<String> = posts.iter().map(ToString::to_string).collect();
    v.sort();
    v
}

#[test]
fn every_combat_pair_resolves_by_the_rule_book() {
    use MoveResult::*;
    for a in Rank::ALL.into_iter().filter(|r| r.movable()) {
        for d in Rank::ALL {
            let expected = if a == Rank::Bomb || d == Rank::Bomb {
                Traded
            } else if d == Rank::Flag {
                Won
            } else if d == Rank::Landmine {
                if a == Rank::Engineer { Won } else { Lost }
            } else if a == d {
                Traded
            } else if (a as u8) < (d as u8) {
                Won
            } else {
                Lost
            };
            assert_eq!(a.attack(d), expected, "{a} attacks {d}");
        }
    }
    assert_eq!(Rank::FieldMarshal.attack(Rank::General), Won);
    assert_eq!(Rank::Engineer.attack(Rank::Lieutenant), Lost);
    assert_eq!(Rank::Engineer.attack(Rank::Landmine), Won);
    assert_eq!(Rank::FieldMarshal.attack(Rank::Landmine), Lost);
    assert_eq!(Rank::Bomb.attack(Rank::Landmine), Traded);
    assert_eq!(Rank::Captain.attack(Rank::Bomb), Traded);
    assert_eq!(Rank::Engineer.attack(Rank::Flag), Won);
    assert_eq!(Rank::Major.attack(Rank::Major), Traded);
}

#[test]
fn layouts_parse_print_and_obey_each_deployment_rule() {
    let example = Layout::example();
    assert_eq!(example.to_string(), "abccddeeffggghhhiiijjkklj");
    assert_eq!(
        "ARRAY abccddeeffggghhhiiijjkklj".parse::<Layout>().unwrap(),
        example
    );
    assert_eq!(example.check(), Ok(()));
    assert!("abc".parse::<Layout>().is_err());
    assert!("abccddeeffggghhhiiijjkklm".parse::<Layout>().is_err());

    let swap = |a: usize, b: usize| {
        let mut l = example;
        l.0.swap(a, b);
        l.check()
    };
    // Slot 23 is L3 (the flag), 22 is L2 (a bomb), 20 is L0 (a landmine), 0 is G0.
    assert_eq!(swap(23, 22), Err(DeploymentError::FlagNotInHeadquarters("L2")));
    assert_eq!(swap(20, 14), Err(DeploymentError::LandmineOutOfBackRows("J4")));
    assert_eq!(swap(22, 0), Err(DeploymentError::BombInFrontRow("G0")));
    let mut extra = example;
    extra.0[0] = Rank::General;
    assert_eq!(
        extra.check(),
        Err(DeploymentError::PieceCount {
            rank: Rank::FieldMarshal,
            found: 0
        })
    );
    // The flag may stand in either headquarters; landmines anywhere in K and L.
    assert_eq!(swap(23, 21), Ok(()));
    assert_eq!(swap(20, 15), Ok(()));

    let mut rng = rand::rng();
    for _ in 0..50 {
        assert_eq!(Layout::random(&mut rng).check(), Ok(()));
    }
}

#[test]
fn moves_read_and_print_in_the_caai_form_and_turn_into_seat_1s_frame() {
    let m = mv("G0F0");
    assert_eq!(m.to_string(), "G0F0");
    assert_eq!(mv(" g0f0 "), m);
    assert_eq!(m.turned(), mv("F4G4"));
    assert_eq!(m.turned().turned(), m);
    for bad in ["", "G0", "G0F", "G0F5", "M0F0", "G0F0X"] {
        assert!(bad.parse::<Move>().is_err(), "{bad}");
    }
    for r in [
        MoveResult::Moved,
        MoveResult::Won,
        MoveResult::Lost,
        MoveResult::Traded,
    ] {
        assert_eq!(MoveResult::from_caai_digit(r.caai_digit()), Some(r));
    }
    assert_eq!(MoveResult::from_caai_digit(4), None);
    for rank in Rank::ALL {
        assert_eq!(Rank::from_letter(rank.letter()), Some(rank));
    }
    assert_eq!(Rank::from_letter('m'), None);
}

#[test]
fn layouts_land_on_each_seats_own_posts() {
    let position = Position::new([&Layout::example(), &Layout::example()]);
    assert_eq!(position.at(post("G0")), piece(0, Rank::FieldMarshal));
    assert_eq!(position.at(post("L3")), piece(0, Rank::Flag));
    // Seat 1's front row is F, its left (G0's turn) is F4.
    assert_eq!(position.at(post("F4")), piece(1, Rank::FieldMarshal));
    assert_eq!(position.at(post("A1")), piece(1, Rank::Flag));
    assert_eq!(position.pieces().count(), 50);
    for camp in Post::all().filter(|p| p.is_camp()) {
        assert_eq!(position.at(camp), None);
    }
    assert_eq!(position.flag(Seat(1)), Some(post("A1")));
}

#[test]
fn engineers_turn_corners_and_stop_at_pieces() {
    let mut p = Position::empty(Seat(0));
    p.put(post("K0"), piece(0, Rank::Engineer));
    // Up column 0, across row F or B, round the corners; all railway posts reachable.
    let all_railway: Vec<Post> = Post::all()
        .filter(|q| q.on_railway() && *q != post("K0"))
        .collect();
    assert_eq!(
        sorted(p.destinations(post("K0"))),
        sorted({
            let mut v = all_railway.clone();
            v.extend([post("L0"), post("J1")]);
            v
        })
    );
    // A friendly piece at J0 blocks column 0; an enemy at K2 is attacked but not passed.
    p.put(post("J0"), piece(0, Rank::Captain));
    p.put(post("K2"), piece(1, Rank::Captain));
    assert_eq!(sorted(p.destinations(post("K0"))), ["J1", "K1", "K2", "L0"]);
    // A non-engineer on the same post runs straight and stops at the corner.
    let mut q = Position::empty(Seat(0));
    q.put(post("K0"), piece(0, Rank::Colonel));
    assert_eq!(
        sorted(q.destinations(post("K0"))),
        [
            "B0", "C0", "D0", "E0", "F0", "G0", "H0", "I0", "J0", "J1", "K1", "K2", "K3", "K4", "L0"
        ]
    );
    assert_eq!(
        q.check_move(Seat(0), mv("K0F4")),
        Err(MoveError::RailwayTurn {
            from: post("K0"),
            to: post("F4")
        })
    );
    // An engineer crosses the centre railway F2-G2 and turns along row F.
    let mut e = Position::empty(Seat(0));
    e.put(post("G2"), piece(0, Rank::Engineer));
    e.put(post("G1"), piece(0, Rank::Captain));
    e.put(post("G3"), piece(0, Rank::Captain));
    e.put(post("F1"), piece(1, Rank::Captain));
    let d = sorted(e.destinations(post("G2")));
    assert!(d.contains(&"F2".to_string()) && d.contains(&"F1".to_string()));
    assert!(d.contains(&"F4".to_string()) && d.contains(&"B4".to_string()));
    assert!(
        d.contains(&"F0".to_string()),
        "round the loop, since F1 blocks row F"
    );
    assert!(!d.contains(&"E2".to_string()), "E2 is off the railway");
    e.put(post("B2"), piece(0, Rank::Captain));
    e.put(post("K2"), piece(0, Rank::Captain));
    let d = sorted(e.destinations(post("G2")));
    assert!(
        !d.contains(&"F0".to_string()),
        "B2 and K2 cut both loops, F1 blocks row F"
    );
    assert!(d.contains(&"B3".to_string()) && !d.contains(&"B1".to_string()));
    assert!(d.contains(&"H2".to_string()), "a road step");
}

#[test]
fn immovable_pieces_camps_and_headquarters() {
    let mut p = Position::empty(Seat(0));
    p.put(post("L1"), piece(0, Rank::Captain));
    p.put(post("L3"), piece(0, Rank::Flag));
    p.put(post("K4"), piece(0, Rank::Landmine));
    p.put(post("H1"), piece(0, Rank::Major));
    p.put(post("H2"), piece(1, Rank::Major));
    p.put(post("I2"), piece(1, Rank::Major));
    assert_eq!(
        p.check_move(Seat(0), mv("L1K1")),
        Err(MoveError::InHeadquarters(post("L1")))
    );
    assert_eq!(
        p.check_move(Seat(0), mv("L3K3")),
        Err(MoveError::ImmovablePiece(post("L3")))
    );
    assert_eq!(
        p.check_move(Seat(0), mv("K4K3")),
        Err(MoveError::ImmovablePiece(post("K4")))
    );
    assert_eq!(
        p.check_move(Seat(1), mv("H2I2")),
        Err(MoveError::OwnPiece(post("I2")))
    );
    assert_eq!(
        p.check_move(Seat(1), mv("H2H1")),
        Err(MoveError::CampProtected(post("H1")))
    );
    assert_eq!(p.check_move(Seat(0), mv("H1H2")), Ok(()));
    p.put(post("G2"), piece(1, Rank::Major));
    assert_eq!(
        p.check_move(Seat(0), mv("H1G2")),
        Ok(()),
        "diagonally out of a camp, attacking"
    );
    assert_eq!(
        p.check_move(Seat(0), mv("H2H3")),
        Err(MoveError::NoPieceOfYours(post("H2")))
    );
    assert_eq!(
        p.check_move(Seat(0), mv("H1F1")),
        Err(MoveError::Unreachable {
            from: post("H1"),
            to: post("F1")
        })
    );
    // Entering a headquarters is legal.
    let mut q = Position::empty(Seat(0));
    q.put(post("K1"), piece(0, Rank::Captain));
    assert_eq!(q.check_move(Seat(0), mv("K1L1")), Ok(()));
    assert!(p.destinations(post("L1")).is_empty());
}

#[test]
fn the_example_layout_has_a_fixed_number_of_first_moves() {
    let position = Position::new([&Layout::example(), &Layout::example()]);
    let moves = position.legal_moves(Seat(0));
    // Counted by hand, piece by piece: G0 2 (F0, H1), G1 1, G2 3, G3 1, G4 2, H0 1, H2 3, H4 1,
    // I0 2, I1 3, I3 3, I4 2, J0 1, J2 3, J4 1, K0 1, K1 1, K2 2, K3 1; the rest cannot move.
    assert_eq!(moves.len(), 34);
    assert_eq!(position.legal_moves(Seat(1)).len(), 34, "the same layout, turned");
    for m in &moves {
        assert_eq!(position.check_move(Seat(0), *m), Ok(()), "{m}");
    }
}
