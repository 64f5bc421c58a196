--
-- PostgreSQL database dump
--


-- Dumped from database version 15.18 (Debian 15.18-0+deb12u1)
-- Dumped by pg_dump version 15.18 (Debian 15.18-0+deb12u1)

SET statement_timeout = 0;
SET lock_timeout = 0;
SET idle_in_transaction_session_timeout = 0;
SET client_encoding = 'UTF8';
SET standard_conforming_strings = on;
SELECT pg_catalog.set_config('search_path', '', false);
SET check_function_bodies = false;
SET xmloption = content;
SET client_min_messages = warning;
SET row_security = off;

SET default_tablespace = '';

SET default_table_access_method = heap;

--
-- Name: api_tokens; Type: TABLE; Schema: public; Owner: -
--

CREATE TABLE public.api_tokens (
    token_sha256 text NOT NULL,
    user_id text NOT NULL,
    scopes text NOT NULL,
    created_ms bigint NOT NULL,
    revoked boolean DEFAULT false NOT NULL
);


--
-- Name: challenges; Type: TABLE; Schema: public; Owner: -
--

CREATE TABLE public.challenges (
    id text NOT NULL,
    challenger text NOT NULL,
    dest text NOT NULL,
    challenger_rating bigint NOT NULL,
    challenger_provisional boolean NOT NULL,
    dest_rating bigint NOT NULL,
    dest_provisional boolean NOT NULL,
    terms_json text NOT NULL,
    created_ms bigint NOT NULL,
    expires_ms bigint NOT NULL,
    outcome_json text
);


--
-- Name: chat; Type: TABLE; Schema: public; Owner: -
--

CREATE TABLE public.chat (
    id bigint NOT NULL,
    game_id text NOT NULL,
    at_ms bigint NOT NULL,
    author text NOT NULL,
    room text NOT NULL,
    text text NOT NULL
);


--
-- Name: chat_id_seq; Type: SEQUENCE; Schema: public; Owner: -
--

CREATE SEQUENCE public.chat_id_seq
    START WITH 1
    INCREMENT BY 1
    NO MINVALUE
    NO MAXVALUE
    CACHE 1;


--
-- Name: chat_id_seq; Type: SEQUENCE OWNED BY; Schema: public; Owner: -
--

ALTER SEQUENCE public.chat_id_seq OWNED BY public.chat.id;


--
-- Name: downtimes; Type: TABLE; Schema: public; Owner: -
--

CREATE TABLE public.downtimes (
    from_ms bigint NOT NULL,
    to_ms bigint NOT NULL
);


--
-- Name: events; Type: TABLE; Schema: public; Owner: -
--

CREATE TABLE public.events (
    game_id text NOT NULL,
    seq bigint NOT NULL,
    at_ms bigint NOT NULL,
    kind text NOT NULL,
    body_json text NOT NULL
);


--
-- Name: game_downtimes; Type: TABLE; Schema: public; Owner: -
--

CREATE TABLE public.game_downtimes (
    game_id text NOT NULL,
    from_ms bigint NOT NULL,
    to_ms bigint NOT NULL
);


--
-- Name: game_owners; Type: TABLE; Schema: public; Owner: -
--

CREATE TABLE public.game_owners (
    game_id text NOT NULL,
    node_id text NOT NULL,
    lease_key bigint NOT NULL
);


--
-- Name: games; Type: TABLE; Schema: public; Owner: -
--

CREATE TABLE public.games (
    id text NOT NULL,
    variant text NOT NULL,
    created_ms bigint NOT NULL,
    white text NOT NULL,
    black text NOT NULL,
    rematch_of text,
    status text NOT NULL,
    result text,
    reason text,
    turn bigint NOT NULL,
    public boolean NOT NULL,
    rated boolean DEFAULT false NOT NULL
);


--
-- Name: heartbeat; Type: TABLE; Schema: public; Owner: -
--

CREATE TABLE public.heartbeat (
    id integer NOT NULL,
    at_ms bigint NOT NULL,
    CONSTRAINT heartbeat_id_check CHECK ((id = 1))
);


--
-- Name: hidden_moves; Type: TABLE; Schema: public; Owner: -
--

CREATE TABLE public.hidden_moves (
    game_id text NOT NULL,
    turn bigint NOT NULL,
    color text NOT NULL,
    move text NOT NULL,
    nonce text NOT NULL
);


--
-- Name: nodes; Type: TABLE; Schema: public; Owner: -
--

CREATE TABLE public.nodes (
    id text NOT NULL,
    url text NOT NULL,
    lock_key bigint NOT NULL,
    started_ms bigint NOT NULL,
    heartbeat_ms bigint NOT NULL
);


--
-- Name: parity_schema; Type: TABLE; Schema: public; Owner: -
--

CREATE TABLE public.parity_schema (
    version integer NOT NULL
);


--
-- Name: players; Type: TABLE; Schema: public; Owner: -
--

CREATE TABLE public.players (
    game_id text NOT NULL,
    color text NOT NULL,
    user_id text NOT NULL,
    rating bigint,
    provisional boolean NOT NULL
);


--
-- Name: rating_history; Type: TABLE; Schema: public; Owner: -
--

CREATE TABLE public.rating_history (
    user_id text NOT NULL,
    game_id text NOT NULL,
    variant text NOT NULL,
    at_ms bigint NOT NULL,
    rating double precision NOT NULL,
    deviation double precision NOT NULL
);


--
-- Name: ratings; Type: TABLE; Schema: public; Owner: -
--

CREATE TABLE public.ratings (
    user_id text NOT NULL,
    variant text NOT NULL,
    rating double precision NOT NULL,
    deviation double precision NOT NULL,
    volatility double precision NOT NULL,
    games integer NOT NULL
);


--
-- Name: seats; Type: TABLE; Schema: public; Owner: -
--

CREATE TABLE public.seats (
    game_id text NOT NULL,
    color text NOT NULL,
    token_sha256 text,
    invite text
);


--
-- Name: seeks; Type: TABLE; Schema: public; Owner: -
--

CREATE TABLE public.seeks (
    id text NOT NULL,
    user_id text NOT NULL,
    rating bigint NOT NULL,
    provisional boolean NOT NULL,
    terms_json text NOT NULL,
    rating_low bigint,
    rating_high bigint,
    created_ms bigint NOT NULL,
    expires_ms bigint NOT NULL
);


--
-- Name: sessions; Type: TABLE; Schema: public; Owner: -
--

CREATE TABLE public.sessions (
    token_sha256 text NOT NULL,
    user_id text NOT NULL,
    created_ms bigint NOT NULL,
    seen_ms bigint DEFAULT 0 NOT NULL,
    agent text DEFAULT ''::text NOT NULL
);


--
-- Name: signing_key; Type: TABLE; Schema: public; Owner: -
--

CREATE TABLE public.signing_key (
    id integer NOT NULL,
    seed bytea NOT NULL,
    CONSTRAINT signing_key_id_check CHECK ((id = 1))
);


--
-- Name: users; Type: TABLE; Schema: public; Owner: -
--

CREATE TABLE public.users (
    id text NOT NULL,
    name text NOT NULL,
    password_hash text,
    bot boolean NOT NULL,
    created_ms bigint NOT NULL
);


--
-- Name: chat id; Type: DEFAULT; Schema: public; Owner: -
--

ALTER TABLE ONLY public.chat ALTER COLUMN id SET DEFAULT nextval('public.chat_id_seq'::regclass);


--
-- Data for Name: api_tokens; Type: TABLE DATA; Schema: public; Owner: -
--

COPY public.api_tokens (token_sha256, user_id, scopes, created_ms, revoked) FROM stdin;
3004a16a40eb7194729484a151503ba2c20a436f4757f482a0cba351a2c7f762	ada_old	board:play	1795807957437	f
d71e35e4965113b83bdf059c713acb67b89706b659f90f8dcc79c8fa13d8c3b2	bo-release	board:play	1795807957448	f
54cd5e3650fa60aca5cebeff55e51b8af43584226f2941db62698b9f3781a645	bo-release	bot:play,board:play	1795807957456	f
fe7bc68cd4027cce7052e0e3cdf4108bcc9beaaca80f4f27f30bfdcf2c6555c8	ada_old	board:play,bot:play	1795807957442	t
\.


--
-- Data for Name: challenges; Type: TABLE DATA; Schema: public; Owner: -
--

COPY public.challenges (id, challenger, dest, challenger_rating, challenger_provisional, dest_rating, dest_provisional, terms_json, created_ms, expires_ms, outcome_json) FROM stdin;
drXYHrXliG	ada_old	bo-release	1500	t	1500	t	{"variant":"chess","clock":{"initial":300,"increment":3},"days":null,"rated":true,"color":"white","fen":null}	1795807957475	9223372036854775807	{"kind":"accepted","game":"drXYHrXliG"}
hl9sYqZ5lk	bo-release	ada_old	1500	t	1500	t	{"variant":"parity","clock":{"initial":600,"increment":5},"days":null,"rated":true,"color":"white","fen":null}	1795807957700	9223372036854775807	{"kind":"accepted","game":"hl9sYqZ5lk"}
HCVVqx0qLy	ada_old	bo-release	1338	t	1662	t	{"variant":"chess","clock":null,"days":3,"rated":true,"color":"white","fen":null}	1795807957882	9223372036854775807	{"kind":"accepted","game":"HCVVqx0qLy"}
NTeN3trUk2	bo-release	ada_old	1662	t	1338	t	{"variant":"chess","clock":null,"days":7,"rated":true,"color":"black","fen":"r1bqkbnr/pppp1ppp/2n5/4p3/4P3/5N2/PPPP1PPP/RNBQKB1R w KQkq - 2 3"}	1795807957948	9223372036854775807	\N
\.


--
-- Data for Name: chat; Type: TABLE DATA; Schema: public; Owner: -
--

COPY public.chat (id, game_id, at_ms, author, room, text) FROM stdin;
1	drXYHrXliG	1795807957528	Ada_Old	player	good luck!
2	drXYHrXliG	1795807957534	Bo-Release	player	you too
3	drXYHrXliG	1795807957542	Ada_Old	player	1
4	drXYHrXliG	1795807957550	Ada_Old	player	2
5	drXYHrXliG	1795807957556	Ada_Old	player	3
6	drXYHrXliG	1795807957566	Bo-Release	spectator	a line in the spectators' room
7	drXYHrXliG	1795807957572	Bo-Release	player	Grüße — «schön» ♞ 👍 'quotes' "double" \\ back
8	drXYHrXliG	1795807957578	Ada_Old	player	b
9	drXYHrXliG	1795807957586	Ada_Old	player	a
10	drXYHrXliG	1795807957594	Bo-Release	player	xxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxx
11	drXYHrXliG	1795807957624	Ada_Old	player	gg (after the end)
12	drXYHrXliG	1795807957676	Ada_Old	player	burst 4
13	drXYHrXliG	1795807957677	Bo-Release	player	burst 3
14	drXYHrXliG	1795807957677	Ada_Old	player	burst 6
15	drXYHrXliG	1795807957677	Bo-Release	player	burst 7
16	drXYHrXliG	1795807957677	Ada_Old	player	burst 2
17	drXYHrXliG	1795807957677	Bo-Release	player	burst 1
18	drXYHrXliG	1795807957677	Ada_Old	player	burst 0
19	drXYHrXliG	1795807957677	Bo-Release	player	burst 5
\.


--
-- Data for Name: downtimes; Type: TABLE DATA; Schema: public; Owner: -
--

COPY public.downtimes (from_ms, to_ms) FROM stdin;
\.


--
-- Data for Name: events; Type: TABLE DATA; Schema: public; Owner: -
--

COPY public.events (game_id, seq, at_ms, kind, body_json) FROM stdin;
drXYHrXliG	1	1795807957492	created	{"type":"created","variant":"chess","clock":{"initial":300,"increment":3},"days":null,"white":{"kind":"human"},"black":{"kind":"human"}}
drXYHrXliG	2	1795807957492	joined	{"type":"joined","color":"white"}
drXYHrXliG	3	1795807957492	joined	{"type":"joined","color":"black"}
drXYHrXliG	4	1795807957492	started	{"type":"started","fen":"rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1","clocks":{"white_ms":300000,"black_ms":300000,"running":["white"]}}
drXYHrXliG	5	1795807957505	move	{"type":"move","color":"white","uci":"f2f3","san":"f3","fen":"rnbqkbnr/pppppppp/8/8/8/5P2/PPPPP1PP/RNBQKBNR b KQkq - 0 1","clocks":{"white_ms":302987,"black_ms":300000,"running":["black"]}}
drXYHrXliG	6	1795807957512	move	{"type":"move","color":"black","uci":"e7e5","san":"e5","fen":"rnbqkbnr/pppp1ppp/8/4p3/8/5P2/PPPPP1PP/RNBQKBNR w KQkq - 0 2","clocks":{"white_ms":302987,"black_ms":302994,"running":["white"]}}
drXYHrXliG	7	1795807957600	move	{"type":"move","color":"white","uci":"g2g4","san":"g4","fen":"rnbqkbnr/pppp1ppp/8/4p3/6P1/5P2/PPPPP2P/RNBQKBNR b KQkq - 0 2","clocks":{"white_ms":305899,"black_ms":302994,"running":["black"]}}
drXYHrXliG	8	1795807957608	move	{"type":"move","color":"black","uci":"d8h4","san":"Qh4#","fen":"rnb1kbnr/pppp1ppp/8/4p3/6Pq/5P2/PPPPP2P/RNBQKBNR w KQkq - 1 3","clocks":{"white_ms":305899,"black_ms":305986,"running":[]}}
drXYHrXliG	9	1795807957608	finished	{"type":"finished","result":"0-1","reason":"checkmate","clocks":{"white_ms":305899,"black_ms":305986,"running":[]}}
hl9sYqZ5lk	1	1795807957716	created	{"type":"created","variant":"parity","clock":{"initial":600,"increment":5},"days":null,"white":{"kind":"human"},"black":{"kind":"human"}}
hl9sYqZ5lk	2	1795807957716	joined	{"type":"joined","color":"white"}
hl9sYqZ5lk	3	1795807957716	joined	{"type":"joined","color":"black"}
hl9sYqZ5lk	4	1795807957716	started	{"type":"started","fen":"rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR KQkq - 0 1","clocks":{"white_ms":600000,"black_ms":600000,"running":["white","black"]}}
hl9sYqZ5lk	5	1795807957731	committed	{"type":"committed","color":"white","turn":1,"commitment":"f2791c6f8aa2baccb010b3f32610af2f1ab1b8b2d6558aa24df1a838fd86f995","clocks":{"white_ms":604985,"black_ms":599985,"running":["black"]}}
hl9sYqZ5lk	6	1795807957741	committed	{"type":"committed","color":"black","turn":1,"commitment":"a42c61963f0df74abcefd575735d6badfa9896452666d8928d8a46c4b185f988","clocks":{"white_ms":604985,"black_ms":604975,"running":["white","black"],"grace_ms":30000}}
hl9sYqZ5lk	7	1795807957749	revealed	{"type":"revealed","color":"white","turn":1,"clocks":{"white_ms":604985,"black_ms":604975,"running":["black"],"grace_ms":29992}}
hl9sYqZ5lk	8	1795807957756	revealed	{"type":"revealed","color":"black","turn":1,"clocks":{"white_ms":604985,"black_ms":604975,"running":[],"grace_ms":29985}}
hl9sYqZ5lk	9	1795807957756	turn	{"type":"turn","turn":1,"white":{"uci":"e2e3","san":"e3","nonce":"3b2b2d87fb2fe98f010c34e44db476e5","commitment":"f2791c6f8aa2baccb010b3f32610af2f1ab1b8b2d6558aa24df1a838fd86f995"},"black":{"uci":"b7b5","san":"b5","nonce":"549a9c3807b0710ee82363dbef0f4988","commitment":"a42c61963f0df74abcefd575735d6badfa9896452666d8928d8a46c4b185f988"},"notes":{"white":{"captured":null,"failed_capture":false,"swap":false,"co_occupied":null,"promotion":null,"en_passant":false,"castled":false,"check":null,"failed_check":false,"text":""},"black":{"captured":null,"failed_capture":false,"swap":false,"co_occupied":null,"promotion":null,"en_passant":false,"castled":false,"check":null,"failed_check":false,"text":""}},"fen":"rnbqkbnr/p1pppppp/8/1p'6/8/4P'3/PPPP1PPP/RNBQKBNR KQkq b6 0 2","clocks":{"white_ms":604985,"black_ms":604975,"running":["white","black"]}}
hl9sYqZ5lk	10	1795807957767	committed	{"type":"committed","color":"white","turn":2,"commitment":"5a67fd9b1c4718c1dea3f2e6a140b8f4b64629d78ba9f9da144f16e9a88b2b00","clocks":{"white_ms":609975,"black_ms":604965,"running":["black"]}}
hl9sYqZ5lk	11	1795807957777	committed	{"type":"committed","color":"black","turn":2,"commitment":"50fe210e99c1519acb3d80d41b869c2d5873263ca72777fa9a6e05a00052813a","clocks":{"white_ms":609975,"black_ms":609955,"running":["white","black"],"grace_ms":30000}}
hl9sYqZ5lk	12	1795807957786	revealed	{"type":"revealed","color":"white","turn":2,"clocks":{"white_ms":609975,"black_ms":609955,"running":["black"],"grace_ms":29991}}
hl9sYqZ5lk	13	1795807957797	revealed	{"type":"revealed","color":"black","turn":2,"clocks":{"white_ms":609975,"black_ms":609955,"running":[],"grace_ms":29979}}
hl9sYqZ5lk	14	1795807957797	turn	{"type":"turn","turn":2,"white":{"uci":"f1b5","san":"Bxb5","nonce":"ac1d2618fa8c985ec27633a0429e49c2","commitment":"5a67fd9b1c4718c1dea3f2e6a140b8f4b64629d78ba9f9da144f16e9a88b2b00"},"black":{"uci":"d7d6","san":"d6","nonce":"b69310f6642c6f2a3fb1836cb08ba4b8","commitment":"50fe210e99c1519acb3d80d41b869c2d5873263ca72777fa9a6e05a00052813a"},"notes":{"white":{"captured":"pawn","failed_capture":false,"swap":false,"co_occupied":null,"promotion":null,"en_passant":false,"castled":false,"check":"delayed","failed_check":false,"text":"takes pawn, delayed check"},"black":{"captured":null,"failed_capture":false,"swap":false,"co_occupied":null,"promotion":null,"en_passant":false,"castled":false,"check":null,"failed_check":false,"text":""}},"fen":"rnbqkbnr/p1p1pppp/3p'4/1B'6/8/4P3/PPPP1PPP/RNBQK1NR KQkq - 0 3","clocks":{"white_ms":609975,"black_ms":609955,"running":["white","black"]}}
hl9sYqZ5lk	15	1795807957806	committed	{"type":"committed","color":"white","turn":3,"commitment":"d7e247f5327c153b6fddcbb6a71e42e221753fc1eb43c2a4f614c58ff327a87b","clocks":{"white_ms":614966,"black_ms":609946,"running":["black"]}}
hl9sYqZ5lk	16	1795807957815	committed	{"type":"committed","color":"black","turn":3,"commitment":"c3c72f768ed850cecf502df87175f945e058868116e0c1d0c4e0b53630307b6e","clocks":{"white_ms":614966,"black_ms":614938,"running":["white","black"],"grace_ms":30000}}
hl9sYqZ5lk	17	1795807957821	revealed	{"type":"revealed","color":"white","turn":3,"clocks":{"white_ms":614966,"black_ms":614938,"running":["black"],"grace_ms":29994}}
hl9sYqZ5lk	18	1795807957829	revealed	{"type":"revealed","color":"black","turn":3,"clocks":{"white_ms":614966,"black_ms":614938,"running":[],"grace_ms":29986}}
hl9sYqZ5lk	19	1795807957829	turn	{"type":"turn","turn":3,"white":{"uci":"h2h4","san":"h4","nonce":"34c7b008bb9ff8e4c3a860f57ca8c0b1","commitment":"d7e247f5327c153b6fddcbb6a71e42e221753fc1eb43c2a4f614c58ff327a87b"},"black":{"uci":"g8h6","san":"Nh6","nonce":"64c5a3f1a6ab5ea61b5fc114c321ac10","commitment":"c3c72f768ed850cecf502df87175f945e058868116e0c1d0c4e0b53630307b6e"},"notes":{"white":{"captured":null,"failed_capture":false,"swap":false,"co_occupied":null,"promotion":null,"en_passant":false,"castled":false,"check":"immediate","failed_check":false,"text":"immediate check"},"black":{"captured":null,"failed_capture":false,"swap":false,"co_occupied":null,"promotion":null,"en_passant":false,"castled":false,"check":null,"failed_check":false,"text":""}},"fen":"rnbqkb1r/p1p1pppp/3p3n'/1B6/7P'/4P3/PPPP1PP1/RNBQK1NR KQkq h3 0 4","clocks":{"white_ms":614966,"black_ms":614938,"running":["white","black"]}}
hl9sYqZ5lk	20	1795807957842	committed	{"type":"committed","color":"white","turn":4,"commitment":"fb8e7547236b872a62c9d3788ae460ac07b8d5d40ac634c727ba2bde413c03ba","clocks":{"white_ms":619953,"black_ms":614925,"running":["black"]}}
hl9sYqZ5lk	21	1795807957849	committed	{"type":"committed","color":"black","turn":4,"commitment":"5daf3bdd91a95e6ca53c1020504697e4d107aeda02c43e7afcd1806ab29798a4","clocks":{"white_ms":619953,"black_ms":619918,"running":["white","black"],"grace_ms":30000}}
hl9sYqZ5lk	22	1795807957856	revealed	{"type":"revealed","color":"white","turn":4,"clocks":{"white_ms":619953,"black_ms":619918,"running":["black"],"grace_ms":29992}}
hl9sYqZ5lk	23	1795807957865	revealed	{"type":"revealed","color":"black","turn":4,"clocks":{"white_ms":619953,"black_ms":619918,"running":[],"grace_ms":29982}}
hl9sYqZ5lk	24	1795807957865	turn	{"type":"turn","turn":4,"white":{"uci":"f2f4","san":"f4","nonce":"65f626d7bb570e6e854f0efb7155f004","commitment":"fb8e7547236b872a62c9d3788ae460ac07b8d5d40ac634c727ba2bde413c03ba"},"black":{"uci":"e8d7","san":"Kd7","nonce":"408c8bb90a43064f16af7638b48d5ca1","commitment":"5daf3bdd91a95e6ca53c1020504697e4d107aeda02c43e7afcd1806ab29798a4"},"notes":{"white":{"captured":null,"failed_capture":false,"swap":false,"co_occupied":null,"promotion":null,"en_passant":false,"castled":false,"check":"immediate","failed_check":false,"text":"immediate check"},"black":{"captured":null,"failed_capture":false,"swap":false,"co_occupied":null,"promotion":null,"en_passant":false,"castled":false,"check":null,"failed_check":false,"text":""}},"fen":"rnbq1b1r/p1pk'pppp/3p3n/1B6/5P'1P/4P3/PPPP2P1/RNBQK1NR KQ f3 0 5","clocks":{"white_ms":619953,"black_ms":619918,"running":[]}}
hl9sYqZ5lk	25	1795807957865	finished	{"type":"finished","result":"1-0","reason":"no-legal-move","clocks":{"white_ms":619953,"black_ms":619918,"running":[]}}
HCVVqx0qLy	1	1795807957896	created	{"type":"created","variant":"chess","clock":null,"days":3,"white":{"kind":"human"},"black":{"kind":"human"}}
HCVVqx0qLy	2	1795807957896	joined	{"type":"joined","color":"white"}
HCVVqx0qLy	3	1795807957896	joined	{"type":"joined","color":"black"}
HCVVqx0qLy	4	1795807957896	started	{"type":"started","fen":"rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1","clocks":{"white_ms":259200000,"black_ms":259200000,"running":["white"]}}
HCVVqx0qLy	5	1795807957911	move	{"type":"move","color":"white","uci":"f2f3","san":"f3","fen":"rnbqkbnr/pppppppp/8/8/8/5P2/PPPPP1PP/RNBQKBNR b KQkq - 0 1","clocks":{"white_ms":259200000,"black_ms":259200000,"running":["black"]}}
HCVVqx0qLy	6	1795807957924	move	{"type":"move","color":"black","uci":"e7e5","san":"e5","fen":"rnbqkbnr/pppp1ppp/8/4p3/8/5P2/PPPPP1PP/RNBQKBNR w KQkq - 0 2","clocks":{"white_ms":259200000,"black_ms":259200000,"running":["white"]}}
\.


--
-- Data for Name: game_downtimes; Type: TABLE DATA; Schema: public; Owner: -
--

COPY public.game_downtimes (game_id, from_ms, to_ms) FROM stdin;
\.


--
-- Data for Name: game_owners; Type: TABLE DATA; Schema: public; Owner: -
--

COPY public.game_owners (game_id, node_id, lease_key) FROM stdin;
drXYHrXliG	Kie4QkvLsS	4988584009763127416
hl9sYqZ5lk	Kie4QkvLsS	998403763713773533
HCVVqx0qLy	Kie4QkvLsS	-8195311101726046369
\.


--
-- Data for Name: games; Type: TABLE DATA; Schema: public; Owner: -
--

COPY public.games (id, variant, created_ms, white, black, rematch_of, status, result, reason, turn, public, rated) FROM stdin;
drXYHrXliG	chess	1795807957492	{"kind":"human"}	{"kind":"human"}	\N	finished	0-1	checkmate	3	f	t
hl9sYqZ5lk	parity	1795807957716	{"kind":"human"}	{"kind":"human"}	\N	finished	1-0	no-legal-move	5	f	t
HCVVqx0qLy	chess	1795807957896	{"kind":"human"}	{"kind":"human"}	\N	started	\N	\N	2	f	t
\.


--
-- Data for Name: heartbeat; Type: TABLE DATA; Schema: public; Owner: -
--

COPY public.heartbeat (id, at_ms) FROM stdin;
1	1795807958002
\.


--
-- Data for Name: hidden_moves; Type: TABLE DATA; Schema: public; Owner: -
--

COPY public.hidden_moves (game_id, turn, color, move, nonce) FROM stdin;
hl9sYqZ5lk	1	white	e2e3	3b2b2d87fb2fe98f010c34e44db476e5
hl9sYqZ5lk	1	black	b7b5	549a9c3807b0710ee82363dbef0f4988
hl9sYqZ5lk	2	white	f1b5	ac1d2618fa8c985ec27633a0429e49c2
hl9sYqZ5lk	2	black	d7d6	b69310f6642c6f2a3fb1836cb08ba4b8
hl9sYqZ5lk	3	white	h2h4	34c7b008bb9ff8e4c3a860f57ca8c0b1
hl9sYqZ5lk	3	black	g8h6	64c5a3f1a6ab5ea61b5fc114c321ac10
hl9sYqZ5lk	4	white	f2f4	65f626d7bb570e6e854f0efb7155f004
hl9sYqZ5lk	4	black	e8d7	408c8bb90a43064f16af7638b48d5ca1
\.


--
-- Data for Name: nodes; Type: TABLE DATA; Schema: public; Owner: -
--

COPY public.nodes (id, url, lock_key, started_ms, heartbeat_ms) FROM stdin;
Kie4QkvLsS	http://127.0.0.1:33785	-4150306059743193096	1795807957147	1795807957186
\.


--
-- Data for Name: parity_schema; Type: TABLE DATA; Schema: public; Owner: -
--

COPY public.parity_schema (version) FROM stdin;
6
\.


--
-- Data for Name: players; Type: TABLE DATA; Schema: public; Owner: -
--

COPY public.players (game_id, color, user_id, rating, provisional) FROM stdin;
drXYHrXliG	white	ada_old	1500	t
drXYHrXliG	black	bo-release	1500	t
hl9sYqZ5lk	white	bo-release	1500	t
hl9sYqZ5lk	black	ada_old	1500	t
HCVVqx0qLy	white	ada_old	1338	t
HCVVqx0qLy	black	bo-release	1662	t
\.


--
-- Data for Name: rating_history; Type: TABLE DATA; Schema: public; Owner: -
--

COPY public.rating_history (user_id, game_id, variant, at_ms, rating, deviation) FROM stdin;
ada_old	drXYHrXliG	chess	1795807957613	1337.6891060937023	290.3189637179804
bo-release	drXYHrXliG	chess	1795807957613	1662.3108939062977	290.3189637179804
bo-release	hl9sYqZ5lk	parity	1795807957870	1662.3108939062977	290.3189637179804
ada_old	hl9sYqZ5lk	parity	1795807957870	1337.6891060937023	290.3189637179804
\.


--
-- Data for Name: ratings; Type: TABLE DATA; Schema: public; Owner: -
--

COPY public.ratings (user_id, variant, rating, deviation, volatility, games) FROM stdin;
ada_old	chess	1337.6891060937023	290.3189637179804	0.05999967537233814	1
bo-release	chess	1662.3108939062977	290.3189637179804	0.05999967537233814	1
bo-release	parity	1662.3108939062977	290.3189637179804	0.05999967537233814	1
ada_old	parity	1337.6891060937023	290.3189637179804	0.05999967537233814	1
\.


--
-- Data for Name: seats; Type: TABLE DATA; Schema: public; Owner: -
--

COPY public.seats (game_id, color, token_sha256, invite) FROM stdin;
drXYHrXliG	white	2ece0f060a3af61e0ba37a776b87326db543ef42d71a555e922ebba6bd9cd2ae	\N
drXYHrXliG	black	b7686d116ba630f00ac377edd32e1cd61e364a1547c94a83a3417c4e3955d479	\N
hl9sYqZ5lk	white	a8ca0faf965285bbd98fe72b4314d91d10c7ff3180b5ef48875396a1c74ae9a1	\N
hl9sYqZ5lk	black	130670a4c0d3b320ef096feb1acae3679edce458a018bf58cfcae01ef117ede9	\N
HCVVqx0qLy	white	479b01e11b5c4dcf19ed12224ae3961ffd892e43da8049ea8c5f93f20c0e1a01	\N
HCVVqx0qLy	black	0b5f53b4d31b567ea6f0179c9b50280b641bb50a0c547c962a413a5b47642036	\N
\.


--
-- Data for Name: seeks; Type: TABLE DATA; Schema: public; Owner: -
--

COPY public.seeks (id, user_id, rating, provisional, terms_json, rating_low, rating_high, created_ms, expires_ms) FROM stdin;
ESCeyJ54TP	ada_old	1338	t	{"variant":"parity","clock":null,"days":7,"rated":true,"color":"random","fen":null}	1200	1800	1795807957934	1795808557934
\.


--
-- Data for Name: sessions; Type: TABLE DATA; Schema: public; Owner: -
--

COPY public.sessions (token_sha256, user_id, created_ms, seen_ms, agent) FROM stdin;
fdfad91f9bd6e30a28bc16f7710672944001412b4c19ec5f546fdb82a6e35754	ada_old	1795807957262	1795807957262	make-fixture.py/0.2 (signup)
a1defd96d1fe8142f0293c26f3413671c1fceab5868e2c527033661f43fc92d8	ada_old	1795807957339	1795807957339	make-fixture.py/0.2 (login)
94a0413634d91e80d194b2e4de61e7fa524db8474b33a10fb8a406bdb4866a51	bo-release	1795807957386	1795807957386	make-fixture.py/0.2 (signup)
bdebb47990ad3f64377a727e5040f0aebc67023c0a3af080fca9d77bafa418ab	bo-release	1795807957428	1795807957428	make-fixture.py/0.2 (login)
\.


--
-- Data for Name: signing_key; Type: TABLE DATA; Schema: public; Owner: -
--

COPY public.signing_key (id, seed) FROM stdin;
1	\\xac9578535dcc3dd0c27d3a02b30052745be6644074e972693080231a86ba1401
\.


--
-- Data for Name: users; Type: TABLE DATA; Schema: public; Owner: -
--

COPY public.users (id, name, password_hash, bot, created_ms) FROM stdin;
ada_old	Ada_Old	$argon2id$v=19$m=19456,t=2,p=1$HNF6LKORubpRqiPDPqodDQ$Ka+Svnt7H7OokqTnZgp02JDcvzE+fWTjGdgjgL+B1/M	f	1795807957259
bo-release	Bo-Release	$argon2id$v=19$m=19456,t=2,p=1$1eoTEtI1cCq20RFua4rhkA$zancZq6xtag7HmMRjx0708hiWPV0tCcIwiWo/SgCPng	f	1795807957380
\.


--
-- Name: chat_id_seq; Type: SEQUENCE SET; Schema: public; Owner: -
--

SELECT pg_catalog.setval('public.chat_id_seq', 19, true);


--
-- Name: api_tokens api_tokens_pkey; Type: CONSTRAINT; Schema: public; Owner: -
--

ALTER TABLE ONLY public.api_tokens
    ADD CONSTRAINT api_tokens_pkey PRIMARY KEY (token_sha256);


--
-- Name: challenges challenges_pkey; Type: CONSTRAINT; Schema: public; Owner: -
--

ALTER TABLE ONLY public.challenges
    ADD CONSTRAINT challenges_pkey PRIMARY KEY (id);


--
-- Name: chat chat_pkey; Type: CONSTRAINT; Schema: public; Owner: -
--

ALTER TABLE ONLY public.chat
    ADD CONSTRAINT chat_pkey PRIMARY KEY (id);


--
-- Name: events events_pkey; Type: CONSTRAINT; Schema: public; Owner: -
--

ALTER TABLE ONLY public.events
    ADD CONSTRAINT events_pkey PRIMARY KEY (game_id, seq);


--
-- Name: game_owners game_owners_pkey; Type: CONSTRAINT; Schema: public; Owner: -
--

ALTER TABLE ONLY public.game_owners
    ADD CONSTRAINT game_owners_pkey PRIMARY KEY (game_id);


--
-- Name: games games_pkey; Type: CONSTRAINT; Schema: public; Owner: -
--

ALTER TABLE ONLY public.games
    ADD CONSTRAINT games_pkey PRIMARY KEY (id);


--
-- Name: heartbeat heartbeat_pkey; Type: CONSTRAINT; Schema: public; Owner: -
--

ALTER TABLE ONLY public.heartbeat
    ADD CONSTRAINT heartbeat_pkey PRIMARY KEY (id);


--
-- Name: hidden_moves hidden_moves_pkey; Type: CONSTRAINT; Schema: public; Owner: -
--

ALTER TABLE ONLY public.hidden_moves
    ADD CONSTRAINT hidden_moves_pkey PRIMARY KEY (game_id, turn, color);


--
-- Name: nodes nodes_pkey; Type: CONSTRAINT; Schema: public; Owner: -
--

ALTER TABLE ONLY public.nodes
    ADD CONSTRAINT nodes_pkey PRIMARY KEY (id);


--
-- Name: players players_pkey; Type: CONSTRAINT; Schema: public; Owner: -
--

ALTER TABLE ONLY public.players
    ADD CONSTRAINT players_pkey PRIMARY KEY (game_id, color);


--
-- Name: rating_history rating_history_pkey; Type: CONSTRAINT; Schema: public; Owner: -
--

ALTER TABLE ONLY public.rating_history
    ADD CONSTRAINT rating_history_pkey PRIMARY KEY (user_id, game_id);


--
-- Name: ratings ratings_pkey; Type: CONSTRAINT; Schema: public; Owner: -
--

ALTER TABLE ONLY public.ratings
    ADD CONSTRAINT ratings_pkey PRIMARY KEY (user_id, variant);


--
-- Name: seats seats_pkey; Type: CONSTRAINT; Schema: public; Owner: -
--

ALTER TABLE ONLY public.seats
    ADD CONSTRAINT seats_pkey PRIMARY KEY (game_id, color);


--
-- Name: seeks seeks_pkey; Type: CONSTRAINT; Schema: public; Owner: -
--

ALTER TABLE ONLY public.seeks
    ADD CONSTRAINT seeks_pkey PRIMARY KEY (id);


--
-- Name: sessions sessions_pkey; Type: CONSTRAINT; Schema: public; Owner: -
--

ALTER TABLE ONLY public.sessions
    ADD CONSTRAINT sessions_pkey PRIMARY KEY (token_sha256);


--
-- Name: signing_key signing_key_pkey; Type: CONSTRAINT; Schema: public; Owner: -
--

ALTER TABLE ONLY public.signing_key
    ADD CONSTRAINT signing_key_pkey PRIMARY KEY (id);


--
-- Name: users users_pkey; Type: CONSTRAINT; Schema: public; Owner: -
--

ALTER TABLE ONLY public.users
    ADD CONSTRAINT users_pkey PRIMARY KEY (id);


--
-- Name: api_tokens_by_user; Type: INDEX; Schema: public; Owner: -
--

CREATE INDEX api_tokens_by_user ON public.api_tokens USING btree (user_id);


--
-- Name: challenges_by_challenger; Type: INDEX; Schema: public; Owner: -
--

CREATE INDEX challenges_by_challenger ON public.challenges USING btree (challenger);


--
-- Name: challenges_by_dest; Type: INDEX; Schema: public; Owner: -
--

CREATE INDEX challenges_by_dest ON public.challenges USING btree (dest);


--
-- Name: chat_by_game; Type: INDEX; Schema: public; Owner: -
--

CREATE INDEX chat_by_game ON public.chat USING btree (game_id);


--
-- Name: game_downtimes_by_game; Type: INDEX; Schema: public; Owner: -
--

CREATE INDEX game_downtimes_by_game ON public.game_downtimes USING btree (game_id);


--
-- Name: games_by_status; Type: INDEX; Schema: public; Owner: -
--

CREATE INDEX games_by_status ON public.games USING btree (status, created_ms);


--
-- Name: players_by_user; Type: INDEX; Schema: public; Owner: -
--

CREATE INDEX players_by_user ON public.players USING btree (user_id);


--
-- Name: seats_by_token; Type: INDEX; Schema: public; Owner: -
--

CREATE INDEX seats_by_token ON public.seats USING btree (token_sha256);


--
-- Name: seeks_by_expiry; Type: INDEX; Schema: public; Owner: -
--

CREATE INDEX seeks_by_expiry ON public.seeks USING btree (expires_ms);


--
-- Name: sessions_by_user; Type: INDEX; Schema: public; Owner: -
--

CREATE INDEX sessions_by_user ON public.sessions USING btree (user_id);


--
-- Name: api_tokens api_tokens_user_id_fkey; Type: FK CONSTRAINT; Schema: public; Owner: -
--

ALTER TABLE ONLY public.api_tokens
    ADD CONSTRAINT api_tokens_user_id_fkey FOREIGN KEY (user_id) REFERENCES public.users(id);


--
-- Name: challenges challenges_challenger_fkey; Type: FK CONSTRAINT; Schema: public; Owner: -
--

ALTER TABLE ONLY public.challenges
    ADD CONSTRAINT challenges_challenger_fkey FOREIGN KEY (challenger) REFERENCES public.users(id);


--
-- Name: challenges challenges_dest_fkey; Type: FK CONSTRAINT; Schema: public; Owner: -
--

ALTER TABLE ONLY public.challenges
    ADD CONSTRAINT challenges_dest_fkey FOREIGN KEY (dest) REFERENCES public.users(id);


--
-- Name: players players_user_id_fkey; Type: FK CONSTRAINT; Schema: public; Owner: -
--

ALTER TABLE ONLY public.players
    ADD CONSTRAINT players_user_id_fkey FOREIGN KEY (user_id) REFERENCES public.users(id);


--
-- Name: ratings ratings_user_id_fkey; Type: FK CONSTRAINT; Schema: public; Owner: -
--

ALTER TABLE ONLY public.ratings
    ADD CONSTRAINT ratings_user_id_fkey FOREIGN KEY (user_id) REFERENCES public.users(id);


--
-- Name: seeks seeks_user_id_fkey; Type: FK CONSTRAINT; Schema: public; Owner: -
--

ALTER TABLE ONLY public.seeks
    ADD CONSTRAINT seeks_user_id_fkey FOREIGN KEY (user_id) REFERENCES public.users(id);


--
-- Name: sessions sessions_user_id_fkey; Type: FK CONSTRAINT; Schema: public; Owner: -
--

ALTER TABLE ONLY public.sessions
    ADD CONSTRAINT sessions_user_id_fkey FOREIGN KEY (user_id) REFERENCES public.users(id);


--
-- PostgreSQL database dump complete
--


