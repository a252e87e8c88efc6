"""fogdip's engine: maps, orders, DATC-compliant adjudication and phases. Pure, no I/O.

>>> state = GameState.initial()
>>> record = adjudicate(state, {"FRANCE": ["A PAR - BUR"], "GERMANY": ["A MUN - BUR"]})
>>> str(record.result_of("PAR").reason)
'bounced: 1 against 1 with A MUN - BUR'
"""

from fogdip.engine.errors import FogdipError, IllegalOrder, InvalidOrder, InvalidPosition, OrderRejected
from fogdip.engine.judge import adjudicate
from fogdip.engine.legal import all_legal_orders, legal_orders
from fogdip.engine.map import Map, get_map, standard_map
from fogdip.engine.notation import parse_order
from fogdip.engine.orders import (
    Build,
    Convoy,
    Disband,
    Hold,
    Move,
    Order,
    Retreat,
    SupportHold,
    SupportMove,
    UnitRef,
    Waive,
)
from fogdip.engine.outcomes import OrderResult, Outcome, RejectedOrder, Resolution
from fogdip.engine.reasons import Reason, Why
from fogdip.engine.rules import Rules, get_rules
from fogdip.engine.state import Dislodged, GameState
from fogdip.engine.units import Phase, Unit
from fogdip.engine.vouched import Vouched

__all__ = [
    "Build",
    "Convoy",
    "Disband",
    "Dislodged",
    "FogdipError",
    "GameState",
    "Hold",
    "IllegalOrder",
    "InvalidOrder",
    "InvalidPosition",
    "Map",
    "Move",
    "Order",
    "OrderRejected",
    "OrderResult",
    "Outcome",
    "Phase",
    "Reason",
    "RejectedOrder",
    "Resolution",
    "Retreat",
    "Rules",
    "SupportHold",
    "SupportMove",
    "Unit",
    "UnitRef",
    "Vouched",
    "Waive",
    "Why",
    "adjudicate",
    "all_legal_orders",
    "get_map",
    "get_rules",
    "legal_orders",
    "parse_order",
    "standard_map",
]
