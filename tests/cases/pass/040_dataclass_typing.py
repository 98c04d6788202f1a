# expect: pass
from dataclasses import dataclass, field
from typing import Optional


@dataclass
class Node:
    value: int
    children: list = field(default_factory=list)
    parent: Optional["Node"] = None
