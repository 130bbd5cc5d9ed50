"""A project's copy of early verl, written for rlconf's tests: the batch container whose split asserts equal
pieces (no validate_config in this copy's trainer)."""


class DataProto:
    def __init__(self, rows: list) -> None:
        self.rows = rows

    def __len__(self) -> int:
        return len(self.rows)

    def chunk(self, chunks: int) -> list:
        assert len(self) % chunks == 0, (
            f"only support equal chunk. Got size of DataProto {len(self)} and chunk {chunks}."
        )
        size = len(self) // chunks
        return [DataProto(self.rows[i * size : (i + 1) * size]) for i in range(chunks)]
