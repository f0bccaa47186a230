-- The coach (issue 15). Whether a game was played with hints on (the table
-- option ``hints``, kept in ``tables.options``), so that its history says so
-- and the statistics leave its ratings alone; and each person's choice of a
-- review after every hand (``/spades coach``), kept like their deck design.
-- Games and people from before the coach read as hints off and coach off.

ALTER TABLE games ADD COLUMN hints INTEGER NOT NULL DEFAULT 0 CHECK (hints IN (0, 1));
ALTER TABLE user_prefs ADD COLUMN coach INTEGER NOT NULL DEFAULT 0 CHECK (coach IN (0, 1));
